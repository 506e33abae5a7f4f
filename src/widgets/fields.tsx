/**
 * Field widgets for @rjsf (spec §2, §5, §7): masked phone (###) ###-####, date mm/dd/yyyy (the placeholder
 * '__/__/____' counts as empty), a moment (day and time where the person is), currency, selects (choices, an operation, or config items by type through
 * Config_GetConfigItems), checkbox and the checkbox confirmation card (file upload and one-time passcode entry are
 * in their own modules, loaded only by forms that use them).
 * Each renders inside the engine's Field.Root, so label, hint and error ids are wired by the field.
 */
import { lazy, useMemo, type ChangeEvent } from 'react';
import { Box, chakra, Input, InputGroup, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { condition, evaluate, text } from '../../core/expressions.ts';
import { NativeCheck, type Option } from './native-check.tsx';
import { useExprContext } from '../engine/use-context.ts';
import { useOperationQuery } from '../engine/queries.ts';
import { useEngine } from '../engine/services.ts';
import { applyMask, currencyText, isEmptyMasked, parseCurrency } from './masks.ts';
import { tr } from '../../core/current-language.ts';
import { useTypedText } from '../engine/forms/typed-text.ts';
import { useDescribedBy } from '../engine/forms/described-by.ts';

const PHONE_MASK = '(###) ###-####';
const DATE_MASK = '##/##/####';

export function maskOf(props: WidgetProps, fallback: string): string {
  const own = props.schema['x-mask'];
  return typeof own === 'string' ? own : fallback;
}

export function MaskedInput(props: WidgetProps & { mask: string; inputMode: 'tel' | 'numeric'; autoComplete?: string; placeholderText: string; concealed?: boolean }) {
  const { id, onFocus, disabled, readonly, mask, inputMode, autoComplete, placeholderText, autofocus, concealed } = props;
  const typed = useTypedText(props, (v) => (typeof v === 'string' && !isEmptyMasked(mask, v) ? v : ''));
  const describedBy = useDescribedBy();
  return (
    <Input
      id={id}
      name={id}
      aria-describedby={describedBy}
      type={concealed ? 'password' : 'text'}
      inputMode={inputMode}
      autoComplete={autoComplete ?? 'off'}
      placeholder={placeholderText}
      maxLength={mask.length}
      {...typed.input}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      bg="bg"
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        const masked = applyMask(mask, e.target.value);
        typed.type(masked, masked === '' ? undefined : masked, e.target);
      }}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

export function PhoneWidget(props: WidgetProps) {
  const mask = maskOf(props, PHONE_MASK);
  return <MaskedInput {...props} mask={mask} inputMode="tel" autoComplete="tel-national" placeholderText={mask.replace(/#/g, '_')} />;
}

export function DateWidget(props: WidgetProps) {
  const mask = maskOf(props, DATE_MASK);
  return <MaskedInput {...props} mask={mask} inputMode="numeric" placeholderText={tr('mm/dd/yyyy')} />;
}

/** yyyy-mm-ddThh:mm in the browser's time zone, as a datetime-local input reads and writes it. */
function localMinute(iso: unknown): string {
  const at = typeof iso === 'string' ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return '';
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A moment typed as a day and a time where the person is; the value is that moment in UTC (ISO 8601), as the API takes it. */
export function DateTimeWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, options } = props;
  const describedBy = useDescribedBy();
  const toValue = (local: string) => (local === '' ? options.emptyValue : new Date(local).toISOString());
  return (
    <Input
      id={id}
      name={id}
      aria-describedby={describedBy}
      type="datetime-local"
      value={localMinute(value)}
      disabled={disabled}
      readOnly={readonly}
      bg="bg"
      onChange={(e) => onChange(toValue(e.target.value))}
      onBlur={(e) => onBlur(id, toValue(e.target.value))}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

export function CurrencyWidget(props: WidgetProps) {
  const { id, onFocus, disabled, readonly } = props;
  const typed = useTypedText(props, currencyText);
  const describedBy = useDescribedBy();
  return (
    <InputGroup startElement={<Text as="span" aria-hidden color="fg.muted">$</Text>}>
      <Input
        id={id}
        name={id}
        aria-describedby={describedBy}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        {...typed.input}
        disabled={disabled}
        readOnly={readonly}
        bg="bg"
        onChange={(e) => {
          const raw = e.target.value.replace(/[^0-9.,]/g, '');
          typed.type(raw, parseCurrency(raw), e.currentTarget);
        }}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
    </InputGroup>
  );
}


function NativeSelectInput({ props, options }: { props: WidgetProps; options: Option[] }) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, schema } = props;
  const describedBy = useDescribedBy();
  return (
    <NativeSelect.Root disabled={disabled || readonly}>
      <NativeSelect.Field
        id={id}
        name={id}
        aria-describedby={describedBy}
        value={value === undefined || value === null ? '' : String(value)}
        bg="bg"
        onChange={(e) => {
          const raw = e.target.value;
          onChange(raw === '' ? undefined : choiceValue(schema, raw));
        }}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      >
        <option value="">{props.placeholder || tr('Select…')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

interface SelectOptions {
  choices?: Array<{ value: string | number | boolean; label?: unknown }>;
  source?: { operation: string; select?: string };
  optionValue?: unknown;
  optionLabel?: unknown;
  optionWhere?: unknown;
}

/** Options from `choices`, from an operation (`source` + optionValue/optionLabel over each `item`), or the enum. */
function useChoices(props: WidgetProps): Option[] {
  const context = useExprContext();
  const opts = props.options as SelectOptions;
  const query = useOperationQuery(opts.source as never, context);
  return useMemo<Option[]>(() => {
    // An enumeration's own words (x-labels, decision 0147) name its options; a list's are its items'.
    const items = (props.multiple && props.schema.items && typeof props.schema.items === 'object' && !Array.isArray(props.schema.items) ? props.schema.items : props.schema) as WidgetProps['schema'];
    const words = (items['x-labels'] ?? {}) as Record<string, string>;
    if (opts.choices) return opts.choices.map((c) => ({ value: String(c.value), label: c.label === undefined ? (words[String(c.value)] ?? String(c.value)) : text(c.label, context) }));
    if (opts.source) {
      const answer = opts.source.select ? evaluate({ var: `data.${opts.source.select}` }, { data: query.data }) : query.data;
      const listed = Array.isArray(answer) ? answer : [];
      return (opts.optionWhere === undefined ? listed : listed.filter((item) => condition(opts.optionWhere, { ...context, item }, true))).map((item) => {
        const ctx = { ...context, item };
        return { value: String(evaluate(opts.optionValue ?? { var: 'item.id' }, ctx)), label: text(opts.optionLabel ?? { var: 'item.name' }, ctx) };
      });
    }
    return (props.options.enumOptions ?? []).map((o) => ({ value: String(o.value), label: words[String(o.value)] ?? String(o.label) }));
  }, [opts, query.data, context, props.options.enumOptions, props.schema]);
}

/** A chosen option's value in the schema's type. */
const choiceValue = (schema: WidgetProps['schema'], raw: string) => (schema.type === 'integer' || schema.type === 'number' ? Number(raw) : raw);

export function SelectWidget(props: WidgetProps) {
  const options = useChoices(props);
  return props.multiple ? <CheckGroup props={props} options={options} /> : <NativeSelectInput props={props} options={options} />;
}

/** The same choices as the select, all in view as radio buttons: for a few options a person should compare. */
export function RadioWidget(props: WidgetProps) {
  const options = useChoices(props);
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, label, required, schema } = props;
  const describedBy = useDescribedBy();
  return (
    <Stack role="radiogroup" aria-label={label} aria-required={required || undefined} aria-describedby={describedBy} gap="2">
      {options.map((o, index) => (
        <chakra.label key={o.value} htmlFor={`${id}-${index}`} display="flex" alignItems="center" gap="2.5" cursor={disabled || readonly ? 'not-allowed' : 'pointer'}>
          <chakra.input
            type="radio"
            id={`${id}-${index}`}
            name={id}
            value={o.value}
            checked={value !== undefined && value !== null && String(value) === o.value}
            disabled={disabled || readonly}
            onChange={() => onChange(choiceValue(schema, o.value))}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
            w="4"
            h="4"
            css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
          />
          <Text as="span" fontSize="sm">
            {o.label}
          </Text>
        </chakra.label>
      ))}
    </Stack>
  );
}

/** A list's choice as checkboxes, loaded by the forms that have one. */
const CheckGroup = lazy(() => import('./check-group.tsx'));

/** A select fed by config items of one type (Config_GetConfigItems/{type}, spec §3 Config item types). */
export function ConfigSelectWidget(props: WidgetProps) {
  const context = useExprContext();
  const type = String((props.options as { configType?: string }).configType ?? '');
  const binding = useMemo(() => ({ operation: 'Config_GetConfigItems', params: { type } }), [type]);
  const query = useOperationQuery(binding, context);
  type Item = { name: string; value: string | null; isEnabled: boolean; displayOrder: number };
  // Config_GetConfigItems answers the list; a wrapped {items} (GetAllConfigItems' shape) is read too.
  const answer = query.data as Item[] | { items?: Item[] } | undefined;
  const items = (Array.isArray(answer) ? answer : (answer?.items ?? [])).filter((i) => i.isEnabled).sort((a, b) => a.displayOrder - b.displayOrder);
  return <NativeSelectInput props={props} options={items.map((i) => ({ value: i.value ?? i.name, label: i.name }))} />;
}

/** The languages live now (the built ones and the studio's): a language published today is offered at once (0238). */
export function LanguageSelectWidget(props: WidgetProps) {
  const { languages } = useEngine();
  return <NativeSelectInput props={props} options={languages.list.map((language) => ({ value: language.locale, label: language.name }))} />;
}

export function CheckboxWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, label, required } = props;
  return <NativeCheck id={id} checked={value === true} onChange={onChange} disabled={disabled || readonly} required={required} label={label} />;
}

/** The checkbox confirmation card: a bordered card with the checkbox and its explanation (e.g. Enable Remote Sign). */
export function ConfirmWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, label, uiSchema } = props;
  const help = typeof uiSchema?.['ui:help'] === 'string' ? uiSchema['ui:help'] : undefined;
  const checked = value === true;
  return (
    <Box borderWidth="1px" borderColor={checked ? 'brand.solid' : 'border'} bg={checked ? 'brand.subtle' : 'bg'} borderRadius="md" p="3" data-confirm-card>
      <NativeCheck id={id} checked={checked} onChange={onChange} disabled={disabled || readonly} label={label} describedBy={help ? `${id}__card` : undefined} strong />
      {help ? (
        <Text id={`${id}__card`} mt="1" ms="6.5" fontSize="sm" color="fg.muted">
          {help}
        </Text>
      ) : null}
    </Box>
  );
}

export function TextareaWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, options } = props;
  const describedBy = useDescribedBy();
  return (
    <Textarea
      id={id}
      name={id}
      aria-describedby={describedBy}
      value={value ?? ''}
      disabled={disabled}
      readOnly={readonly}
      bg="bg"
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

