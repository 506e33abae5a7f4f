/**
 * @rjsf templates on Chakra UI: every label is tied to its input (Field.Root's control id is @rjsf's field id, so the
 * label's `for`, the input's id and its aria-describedby hint/error ids all agree — the stock Chakra theme's text
 * inputs had no accessible name), a two-column grid for 'half' fields, hints and catalogue errors under each field.
 * Repeating groups have their templates in array-templates.tsx, loaded with the first form that shows one.
 */
import type { ChangeEvent, FocusEvent } from 'react';
import { Alert, Box, Field, Fieldset, Input, SimpleGrid } from '@chakra-ui/react';
import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps, BaseInputTemplateProps, FieldTemplateProps, ObjectFieldTemplateProps, TemplatesType } from '@rjsf/utils';
import { lazyFunction } from '../ui.tsx';
import { useTypedText } from './typed-text.ts';
import { useDescribedBy } from './described-by.ts';

const Nothing = () => null;

/**
 * Ark's Field takes the control's id from `id` (the label's `for` and the input's id) — `ids.control` would name the
 * root element instead — so the root gets @rjsf's field id as `id` and only the texts get explicit ids.
 */
export const fieldIds = (id: string) => ({ label: `${id}__label`, helperText: `${id}__help`, errorText: `${id}__error` });

function uiOption(uiSchema: unknown, name: string): unknown {
  const options = (uiSchema as Record<string, Record<string, unknown> | undefined> | undefined)?.['ui:options'];
  return options?.[name];
}

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors = [], rawHelp, hidden, required, disabled, readonly, schema, uiSchema, displayLabel } = props;
  const errors = [...new Set(rawErrors)];
  if (hidden) return <Box display="none">{children}</Box>;
  const isGroup = schema.type === 'object' || schema.type === 'array';
  if (isGroup) {
    return (
      <Box data-field={id}>
        {children}
        {errors.length ? (
          <Alert.Root status="error" mt="4" data-form-errors>
            <Alert.Indicator />
            <Alert.Description>{errors.join(' ')}</Alert.Description>
          </Alert.Root>
        ) : null}
      </Box>
    );
  }
  // Checkboxes carry their own label; the field only adds hint and errors.
  const ownLabel = schema.type === 'boolean' || uiOption(uiSchema, 'ownLabel') === true;
  return (
    <Field.Root id={id} ids={fieldIds(id)} invalid={errors.length > 0} required={required} disabled={disabled} readOnly={readonly} data-field={id}>
      {!ownLabel && displayLabel !== false && label ? (
        <Field.Label fontWeight="medium">
          {label}
          <Field.RequiredIndicator />
        </Field.Label>
      ) : null}
      {children}
      {rawHelp && !ownLabel ? <Field.HelperText color="fg.muted">{rawHelp}</Field.HelperText> : null}
      <Field.ErrorText color="error.fg" data-error-for={id}>
        {errors.join(' ')}
      </Field.ErrorText>
    </Field.Root>
  );
}

/** Plain text-like inputs (text, email, password, number): Chakra Input wired by the enclosing Field.Root. */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, type, onFocus, options, readonly, disabled, autofocus, placeholder, schema } = props;
  const inputType = type ?? (schema.type === 'number' || schema.type === 'integer' ? 'number' : 'text');
  const typed = useTypedText(props, (v) => (v === undefined || v === null ? '' : String(v)));
  const describedBy = useDescribedBy();
  return (
    <Input
      id={id}
      name={htmlName ?? id}
      type={inputType}
      aria-describedby={describedBy}
      {...typed.input}
      placeholder={placeholder}
      autoFocus={autofocus}
      readOnly={readonly}
      disabled={disabled}
      autoComplete={(options.autocomplete as string | undefined) ?? 'off'}
      inputMode={inputType === 'number' ? 'decimal' : undefined}
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        const raw = e.target.value;
        typed.type(raw, raw === '' ? options.emptyValue : inputType === 'number' && raw !== '-' && !Number.isNaN(Number(raw)) ? Number(raw) : raw, e.target);
      }}
      onFocus={(e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value)}
      bg="bg"
    />
  );
}

/** Properties in a grid: 'half' fields share a row from 600px up; nested objects are fieldsets with a legend. */
function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, uiSchema, title, fieldPathId } = props;
  const columns = uiOption(uiSchema, 'columns') === 1 ? 1 : 2;
  const grid = (
    <SimpleGrid columns={{ base: 1, sm: columns }} columnGap="4" rowGap="4">
      {properties.map((p) => {
        if (p.hidden) return <div key={p.name} style={{ display: 'none' }}>{p.content}</div>;
        const width = uiOption((uiSchema as Record<string, unknown> | undefined)?.[p.name], 'width');
        return (
          <div key={p.name} style={width === 'half' ? undefined : { gridColumn: '1 / -1' }}>
            {p.content}
          </div>
        );
      })}
    </SimpleGrid>
  );
  // An item of a repeating group is titled by its card (ArrayFieldItemTemplate).
  if (fieldPathId.$id === 'root' || !title || /_\d+$/.test(fieldPathId.$id)) return grid;
  return (
    <Fieldset.Root>
      <Fieldset.Legend fontWeight="semibold" fontSize="md" mb="2">
        {title}
      </Fieldset.Legend>
      <Fieldset.Content mt="0">{grid}</Fieldset.Content>
    </Fieldset.Root>
  );
}

const ArrayFieldTemplate = lazyFunction<ArrayFieldTemplateProps>(() => import('./array-templates.tsx').then((m) => ({ default: m.ArrayFieldTemplate })));
const ArrayFieldItemTemplate = lazyFunction<ArrayFieldItemTemplateProps>(() => import('./array-templates.tsx').then((m) => ({ default: m.ArrayFieldItemTemplate })));

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  DescriptionFieldTemplate: Nothing,
  TitleFieldTemplate: Nothing,
  ButtonTemplates: { SubmitButton: Nothing } as unknown as TemplatesType['ButtonTemplates'],
};
