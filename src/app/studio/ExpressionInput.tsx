import { useEffect, useState } from 'react';
import { Stack, Text, Textarea } from '@chakra-ui/react';

/**
 * An expression as JSON (the language of core/expressions.ts: a literal, a list, or one operator): typed freely, taken
 * when it reads as JSON, said when it does not yet.
 */
export function ExpressionInput({ id, value, onChange }: { id: string; value: unknown; onChange(value: unknown): void }) {
  const shown = value === undefined ? '' : JSON.stringify(value);
  const [draft, setDraft] = useState(shown);
  const [error, setError] = useState<string>();
  // A change from elsewhere (the JSON tab, a write-out) replaces what is typed here, unless it is what was typed.
  useEffect(() => {
    setDraft((typed) => {
      try {
        return JSON.stringify(typed === '' ? undefined : JSON.parse(typed)) === JSON.stringify(value) ? typed : shown;
      } catch {
        return shown;
      }
    });
  }, [shown, value]);
  return (
    <Stack gap="1">
      <Textarea
        id={id}
        size="sm"
        rows={Math.min(8, 1 + Math.floor(draft.length / 60))}
        fontFamily="mono"
        spellCheck={false}
        value={draft}
        onChange={(e) => {
          const typed = e.target.value;
          setDraft(typed);
          if (typed.trim() === '') {
            setError(undefined);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(typed));
            setError(undefined);
          } catch {
            setError('Not JSON yet: an expression is a text in quotes, a number, true, false, a list [ … ] or { "operator": … }.');
          }
        }}
      />
      {error ? (
        <Text fontSize="xs" color="fg.error">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
