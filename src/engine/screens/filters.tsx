import { useState } from 'react';
import { Box, Button, Flex, Input, NativeSelect, SimpleGrid, Text } from '@chakra-ui/react';
import type { TableFilter } from '../../../codegen/generated/descriptors.ts';
import { condition, evaluate, text, type Context } from '../../../core/expressions.ts';
import { formatValue } from '../../../core/formats.ts';
import { tr } from '../../../core/current-language.ts';

export type FilterValues = Record<string, unknown>;
/** A choice of the descriptor (its label a text, or the value's words), or of the answer (`words`, as they are). */
type Choice = { value: string | number | boolean; label?: unknown; words?: string };

/** The filters' values when a screen opens, and after 'Clear': each filter's default. */
export const filterDefaults = (filters: readonly TableFilter[] | undefined): FilterValues =>
  Object.fromEntries((filters ?? []).filter((f) => f.default !== undefined).map((f) => [f.id, f.default]));

/** A select's choices: its own, or those the screen's answer offers (`choicesFrom`, labels already in words). */
function choicesOf(filter: TableFilter, context: Context): Choice[] {
  if (filter.choicesFrom === undefined) return filter.choices ?? [];
  const found = evaluate(filter.choicesFrom, context);
  return Array.isArray(found) ? (found as { value: string | number; label: string }[]).map((c) => ({ value: c.value, words: c.label })) : [];
}

/**
 * The filter bar of tables and reports. A select keeps its choice's own value (a lender's id stays a number, as the
 * operation's body wants it); one with a default always has a value, so it offers no 'All'.
 */
export function Filters({
  filters,
  values,
  onApply,
  context,
  id = 'table-filters',
  errors,
}: {
  filters: readonly TableFilter[];
  values: FilterValues;
  onApply: (v: FilterValues) => void;
  context: Context;
  id?: string;
  /** The server's words for what is wrong with a filter's value (a 400's field errors), shown at the filter. */
  errors?: Record<string, string[]>;
}) {
  const [draft, setDraft] = useState<FilterValues>(values);
  const shown = filters.filter((f) => condition(f.visible, context, true));
  // Every filter hidden from this person (a platform admin's Location, shown to an office admin): no empty bar.
  if (shown.length === 0) return null;
  return (
    <Box
      as="form"
      id={id}
      bg="bg"
      borderWidth="1px"
      borderColor="border"
      borderRadius="md"
      p="4"
      mb="4"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="3">
        {shown.map((f) => {
          const inputId = `filter-${f.id}`;
          const label = text(f.label, context);
          const choices = f.widget === 'select' ? choicesOf(f, context) : [];
          const wrong = errors?.[f.id];
          const described = wrong ? { 'aria-invalid': true, 'aria-describedby': `${inputId}-error` } : {};
          return (
            <Box key={f.id}>
              <Text asChild fontSize="sm" fontWeight="medium" display="block" mb="1">
                <label htmlFor={inputId}>{label}</label>
              </Text>
              {f.widget === 'select' ? (
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field
                    id={inputId}
                    {...described}
                    value={String(draft[f.id] ?? '')}
                    onChange={(e) => setDraft({ ...draft, [f.id]: choices.find((c) => String(c.value) === e.target.value)?.value })}
                  >
                    {f.default === undefined ? <option value="">{tr('All')}</option> : null}
                    {choices.map((c) => (
                      <option key={String(c.value)} value={String(c.value)}>
                        {c.words ?? (c.label === undefined ? formatValue(f.format, c.value) : text(c.label, context))}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              ) : (
                <Input
                  id={inputId}
                  {...described}
                  size="sm"
                  value={String(draft[f.id] ?? '')}
                  placeholder={f.widget === 'date' ? tr('mm/dd/yyyy') : undefined}
                  inputMode={f.widget === 'date' ? 'numeric' : undefined}
                  onChange={(e) => setDraft({ ...draft, [f.id]: e.target.value || undefined })}
                />
              )}
              {wrong ? (
                <Text id={`${inputId}-error`} color="fg.error" fontSize="sm" mt="1">
                  {wrong.join(' ')}
                </Text>
              ) : null}
            </Box>
          );
        })}
      </SimpleGrid>
      <Flex gap="2" mt="3" justify="flex-end">
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            const reset = filterDefaults(filters);
            setDraft(reset);
            onApply(reset);
          }}
        >
          {tr('Clear')}
        </Button>
        <Button size="sm" type="submit" colorPalette="brand">
          {tr('Apply')}
        </Button>
      </Flex>
    </Box>
  );
}
