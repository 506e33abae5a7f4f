import { chakra, Text } from '@chakra-ui/react';
import { useDescribedBy } from '../engine/forms/described-by.ts';

/** A choice of a select or a checkbox group. */
export interface Option {
  value: string;
  label: string;
}

/**
 * A native checkbox in the brand colour: the label element wraps it, so its text is its accessible name, and no
 * state machine is loaded for it (Chakra's Checkbox brings one; this keeps the borrower pages lighter).
 */
export function NativeCheck(props: { id: string; checked: boolean; onChange(checked: boolean): void; disabled?: boolean; required?: boolean; label: string; describedBy?: string; strong?: boolean }) {
  const describedBy = useDescribedBy(props.describedBy);
  return (
    <chakra.label htmlFor={props.id} display="flex" alignItems="flex-start" gap="2.5" cursor={props.disabled ? 'not-allowed' : 'pointer'}>
      <chakra.input
        type="checkbox"
        id={props.id}
        name={props.id}
        checked={props.checked}
        disabled={props.disabled}
        required={props.required}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.checked)}
        w="4"
        h="4"
        mt="0.5"
        flexShrink={0}
        css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
      />
      <Text as="span" fontWeight={props.strong ? 'semibold' : 'normal'} fontSize="sm">
        {props.label}
      </Text>
    </chakra.label>
  );
}
