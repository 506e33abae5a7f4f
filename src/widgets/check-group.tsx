import { chakra, Stack } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { NativeCheck, type Option } from './native-check.tsx';

/**
 * A list property's choice (`multiple`): a fieldset titled by the field's label (a list is a group, which the field
 * template does not label), one checkbox per option. The list keeps the options' order.
 */
const schemaOfItems = (schema: WidgetProps['schema']) => (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items) ? (schema.items as WidgetProps['schema']) : undefined);

export default function CheckGroup({ props, options }: { props: WidgetProps; options: Option[] }) {
  const { id, value, onChange, disabled, readonly, label } = props;
  const chosen = new Set((Array.isArray(value) ? value : []).map(String));
  const numbers = schemaOfItems(props.schema)?.type === 'integer';
  const toggle = (option: string, on: boolean) =>
    onChange(
      options
        .map((o) => o.value)
        .filter((v) => (v === option ? on : chosen.has(v)))
        .map((v) => (numbers ? Number(v) : v)),
    );
  // Nothing to choose (no other location to invite to, say): no empty group.
  if (options.length === 0) return null;
  return (
    // A plain fieldset: Chakra's Fieldset recipe would be one more chunk on every form page (the borrower's too).
    <chakra.fieldset id={id} disabled={disabled || readonly} border="0" p="0" m="0" minW="0">
      <chakra.legend fontWeight="medium" fontSize="sm" mb="1">
        {label}
      </chakra.legend>
      <Stack gap="2">
        {options.map((o) => (
          <NativeCheck key={o.value} id={`${id}-${o.value}`} checked={chosen.has(o.value)} onChange={(on) => toggle(o.value, on)} disabled={disabled || readonly} label={o.label} />
        ))}
      </Stack>
    </chakra.fieldset>
  );
}
