import { useFieldContext } from '@chakra-ui/react';

/**
 * The aria-describedby of a form control inside the engine's Field.Root: its own descriptions, its hint and, while the
 * field is wrong, its error message. Ark links the error only by aria-errormessage, which screen readers seldom
 * announce; FieldTemplate always renders the error text, which Ark shows exactly while the field is invalid.
 */
export function useDescribedBy(...own: Array<string | undefined>): string | undefined {
  const field = useFieldContext();
  const ids = [...own, field?.ariaDescribedby, field?.invalid ? field.ids.errorText : undefined].filter((id): id is string => !!id);
  return ids.length ? ids.join(' ') : undefined;
}
