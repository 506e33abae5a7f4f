import { useEffect, useState } from 'react';
import { Button, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { comparesWith, conditionOf, shownValue, simpleCondition, TEST_WORDS, typedValue, type Check, type SimpleCondition, type Test } from './conditions.ts';
import { ExpressionInput } from './ExpressionInput.tsx';

/**
 * A condition in words where it reads as checks (./conditions.ts): each check a value's name, a test and what it is
 * compared with, all or any of them; added and removed here. Any other condition, or on request, as its JSON.
 */
export function ConditionInput({ id, value, onChange }: { id: string; value: unknown; onChange(value: unknown): void }) {
  const simple = value === undefined ? { join: 'all' as const, checks: [] } : simpleCondition(value);
  const [asJson, setAsJson] = useState(false);
  if (!simple || asJson) {
    return (
      <Stack gap="1">
        <ExpressionInput id={id} value={value} onChange={onChange} />
        {simple ? (
          <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => setAsJson(false)}>
            Edit in words
          </Button>
        ) : (
          <Text fontSize="xs" color="fg.muted">
            This condition has no words in the studio: it is edited as JSON.
          </Text>
        )}
      </Stack>
    );
  }
  const change = (next: SimpleCondition) => onChange(conditionOf(next));
  const setCheck = (index: number, check: Partial<Check>) => change({ ...simple, checks: simple.checks.map((c, i) => (i === index ? { ...c, ...check } : c)) });
  return (
    <Stack gap="1" role="group" aria-label="Condition in words">
      {simple.checks.length > 1 ? (
        <NativeSelect.Root size="sm" maxW="16rem">
          <NativeSelect.Field aria-label="Holds when" value={simple.join} onChange={(e) => change({ ...simple, join: e.target.value === 'any' ? 'any' : 'all' })}>
            <option value="all">All of these hold</option>
            <option value="any">Any of these holds</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      ) : null}
      {simple.checks.map((check, index) => (
        <Flex key={index} gap="1" wrap="wrap" align="center">
          <Input id={index === 0 ? id : undefined} size="sm" flex="2" minW="10rem" aria-label={`Check ${index + 1}: the value`} placeholder="data.stage" value={check.name} onChange={(e) => setCheck(index, { name: e.target.value })} />
          <NativeSelect.Root size="sm" flex="1" minW="9rem">
            <NativeSelect.Field aria-label={`Check ${index + 1}: the test`} value={check.test} onChange={(e) => setCheck(index, withTest(check, e.target.value as Test))}>
              {(Object.keys(TEST_WORDS) as Test[]).map((test) => (
                <option key={test} value={test}>
                  {TEST_WORDS[test]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {comparesWith(check.test) ? (
            <CheckValue index={index} check={check} onChange={(compared) => setCheck(index, { value: compared })} />
          ) : null}
          <Button size="xs" variant="ghost" aria-label={`Remove check ${index + 1}`} onClick={() => change({ ...simple, checks: simple.checks.filter((_, i) => i !== index) })}>
            Remove
          </Button>
        </Flex>
      ))}
      <Flex gap="2">
        <Button size="xs" variant="outline" onClick={() => change({ ...simple, checks: [...simple.checks, { name: '', test: 'set' }] })}>
          Add a check
        </Button>
        <Button size="xs" variant="ghost" onClick={() => setAsJson(true)}>
          Edit as JSON
        </Button>
      </Flex>
    </Stack>
  );
}

/** A check with another test: its value kept where the new test compares with one too (a list for 'is one of'). */
function withTest(check: Check, test: Test): Check {
  if (!comparesWith(test)) return { name: check.name, test };
  const before = check.value ?? '';
  return { name: check.name, test, value: test === 'oneOf' ? (Array.isArray(before) ? before : [before]) : Array.isArray(before) ? (before[0] ?? '') : before };
}

/** What a check compares with, as typed: one value, or for 'is one of' values separated by commas. */
function CheckValue({ index, check, onChange }: { index: number; check: Check; onChange(value: Check['value']): void }) {
  const list = check.test === 'oneOf';
  const shown = Array.isArray(check.value) ? check.value.map(shownValue).join(', ') : check.value === undefined ? '' : shownValue(check.value);
  const read = (text: string): Check['value'] => (list ? text.split(',').map((part) => typedValue(part.trim())) : typedValue(text));
  const [typed, setTyped] = useState(shown);
  // A change from elsewhere (undo, the JSON tab, another test) replaces what is typed here, unless it is what was typed.
  useEffect(() => setTyped((current) => (JSON.stringify(read(current)) === JSON.stringify(check.value) ? current : shown)), [shown]);
  return (
    <Input
      size="sm"
      flex="2"
      minW="8rem"
      aria-label={`Check ${index + 1}: compared with`}
      placeholder={list ? 'Funded, Refund' : 'Funded'}
      value={typed}
      onChange={(e) => {
        setTyped(e.target.value);
        onChange(read(e.target.value));
      }}
    />
  );
}
