import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text } from '@chakra-ui/react';
import Form from '@rjsf/core';
import type { RegistryWidgetsType, UiSchema } from '@rjsf/utils';
import type { Button, DownloadAction, FormScreen as FormDescriptor, SubmitAction } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { bind, condition, evaluate, text, type Context } from '../../../core/expressions.ts';
import { callInput, compact, runActions } from '../actions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext, useLanguage } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { WizardStepContext } from '../contexts.ts';
import { tr } from '../../../core/current-language.ts';
import { useEngine } from '../services.ts';
import { loadForm, loadWidgets, read } from '../preload.ts';
import { cleanData, defaultsOf, displaySchemaFor, schemaInWords, getIn, itemsOf, propertyPaths, toErrorSchema, fieldErrorsOf, type ErrorSchemaNode } from '../forms/model.ts';
import { createValidator, validateForm, type FormRules } from '../forms/validator.ts';
import { catalogueIn } from '../../../core/messages.ts';
import { templates } from '../forms/templates.tsx';
import { ButtonRow, Loading, Refusal, ScreenTitle } from '../ui.tsx';
import { afterPaint } from '../after-paint.ts';

type Data = Record<string, unknown>;

/**
 * The @rjsf uiSchema of the descriptor's fields. A field path goes through a repeating group as if it were an object
 * ('owners.address.city' is the city of every owner): its uiSchema sits under the group's `items`.
 */
export function uiSchemaFor(screen: FormDescriptor, display: Data, context: Context): UiSchema {
  const ui: Record<string, unknown> = {};
  const properties = Object.keys((display.properties ?? {}) as Data);
  const order = (screen.order ?? []).filter((n) => n === '*' || properties.includes(n));
  ui['ui:order'] = order.includes('*') ? order : [...order, '*'];
  const columns = screen.columns ?? (Object.values(screen.fields).some((f) => f?.width === 'half') ? 2 : 1);
  ui['ui:options'] = { columns };
  for (const [path, field] of Object.entries(screen.fields)) {
    if (!field || field.widget === 'hidden') continue;
    const node: Record<string, unknown> = {};
    if (field.label !== undefined) node['ui:title'] = text(field.label, context);
    if (field.hint !== undefined) node['ui:help'] = text(field.hint, context);
    if (field.placeholder !== undefined) node['ui:placeholder'] = tr(field.placeholder);
    if (field.widget) node['ui:widget'] = field.widget;
    if (field.disabled !== undefined && condition(field.disabled, context, false)) node['ui:disabled'] = true;
    node['ui:options'] = { ...(field.options ?? {}), width: field.width ?? 'full', ownLabel: field.widget === 'confirm' };
    const parts = path.split('.');
    let target = ui;
    let schema: Data | undefined = display;
    parts.forEach((part, i) => {
      schema = ((schema?.properties ?? {}) as Record<string, Data>)[part];
      const existing = (target[part] ??= {}) as Record<string, unknown>;
      if (i === parts.length - 1) Object.assign(existing, node, { 'ui:options': { ...(existing['ui:options'] as Data), ...(node['ui:options'] as Data) } });
      target = existing;
      const items = itemsOf(schema);
      if (items) {
        target = (target.items ??= {}) as Record<string, unknown>;
        schema = items;
      }
    });
  }
  return ui as UiSchema;
}

/** Rules of the descriptor broken by the data: a rule on a group's field ('owners.*.x') is checked for each item. */
export function brokenRules(screen: FormDescriptor, context: Context, data: Data, words: Record<string, string>): Record<string, string[]> {
  const broken: Record<string, string[]> = {};
  for (const rule of screen.rules ?? []) {
    const [group, field] = rule.field.split('.*.');
    const places = field === undefined ? [{ path: rule.field, context }] : ((getIn(data, group!) ?? []) as unknown[]).map((item, index) => ({ path: `${group}.${index}.${field}`, context: { ...context, item, index } }));
    for (const place of places) {
      if (condition(rule.invalid, place.context, false)) (broken[place.path] ??= []).push(words[rule.message] ?? tr(rule.message));
    }
  }
  return broken;
}

/**
 * form: @rjsf with the engine's Chakra templates and widgets, a precompiled validator, server checks and a submit.
 * An optional `source` is read first: its answer is `data` for the bindings and texts (a prefilled form).
 */
export default function FormScreen({ screen }: ScreenProps<FormDescriptor>) {
  const base = useExprContext();
  const query = useOperationQuery(screen.source, base);
  const refetch = query.refetch;
  const reload = useCallback(() => void refetch(), [refetch]);
  if (screen.source && query.isLoading) return <Loading />;
  return <FormBody screen={screen} data={screen.source ? (query.data ?? null) : undefined} reload={reload} />;
}

/** A control of a field shown wrong (Field.Root marks it data-invalid), one a person can type in or choose. */
const FIRST_WRONG_CONTROL = '[data-invalid] :is(input, select, textarea):not([type="hidden"]):not(:disabled)';

function FormBody({ screen, data: sourceData, reload }: { screen: FormDescriptor; data: unknown; reload(): void }) {
  const services = useEngine();
  const module = read(loadForm(services, screen.schema));
  const registry = read(loadWidgets(services));
  const widgets = useMemo(() => ({ ...registry.schemaDefaults, ...registry.widgets }) as unknown as RegistryWidgetsType, [registry]);
  const exprContext = useExprContext();
  const context = useMemo(() => (sourceData === undefined ? exprContext : { ...exprContext, data: sourceData }), [exprContext, sourceData]);
  const step = useContext(WizardStepContext);
  const bound = useMemo(() => compact(bind(screen.values, context)), [screen.values, context]);
  const initialData = useCallback(() => {
    // A form that edits a record starts from it: the properties its schema has, empty ones left out.
    const record = screen.from === undefined ? undefined : evaluate(screen.from, context);
    const start = record && typeof record === 'object' ? cleanData(module.schema, record as Data) : {};
    return { ...defaultsOf(module.schema), ...start, ...compact(bind(screen.initial, context)) };
  }, [module, screen.from, screen.initial, context]);
  // @rjsf keeps the typed data itself (a controlled form would recompute its whole state twice per keystroke); the
  // screen re-renders only when the data changes what is shown or required (docs/decisions/0042), and then hands
  // @rjsf the data it last reported, so nothing typed is lost. In a wizard, what was typed and not saved comes back.
  const [seed, setSeed] = useState<Data>(() => ({ ...(step?.draft ?? initialData()), ...bound }));
  const data = useRef<Data>(seed);
  const [attempted, setAttempted] = useState(false);
  const [extraErrors, setExtraErrors] = useState<ErrorSchemaNode | undefined>();
  const [refusal, setRefusal] = useState<string>();
  // Errors a submit found are shown, then the first wrong field in the page's order gets the focus: @rjsf's own
  // focusOnFirstError takes the first error in the validator's order (every missing field before any other error) and
  // misses the rules, checks and 400 answers shown as extra errors.
  const box = useRef<HTMLDivElement>(null);
  const [errorsShown, setErrorsShown] = useState(0);
  const showErrors = (errors: ErrorSchemaNode) => {
    setExtraErrors(errors);
    setErrorsShown((n) => n + 1);
  };
  useEffect(() => {
    if (errorsShown) box.current?.querySelector<HTMLElement>(FIRST_WRONG_CONTROL)?.focus();
  }, [errorsShown]);
  const [formKey, setFormKey] = useState(0);
  const [, setShape] = useState('');
  const merged = { ...data.current, ...bound };
  const ctx = { ...context, form: merged };

  const paths = useMemo(() => propertyPaths(module.schema), [module]);
  // `show` lists the properties on screen; the others travel with the data unseen (a record's fields left as they are).
  const offScreen = useMemo(() => (screen.show ? paths.filter((p) => !screen.show!.some((shown) => p === shown || p.startsWith(`${shown}.`) || shown.startsWith(`${p}.`))) : []), [paths, screen.show]);
  const shapeOf = (c: Context) => {
    const hiddenList = paths.filter((p) => !condition(screen.fields[p]?.visible, c, true));
    const requiredList = paths.filter((p) => !hiddenList.includes(p) && condition(screen.fields[p]?.required, c, false));
    return { hiddenList, requiredList, key: `${hiddenList.join()}|${requiredList.join()}` };
  };
  const shape = shapeOf(ctx);
  const hidden = useMemo(() => new Set(shape.hiddenList), [shape.key]); // eslint-disable-line react-hooks/exhaustive-deps
  const also = useMemo(() => new Set(shape.requiredList), [shape.key]); // eslint-disable-line react-hooks/exhaustive-deps
  const unseen = useMemo(() => new Set([...hidden, ...offScreen, ...paths.filter((p) => screen.fields[p]?.widget === 'hidden')]), [hidden, offScreen, paths, screen.fields]);
  // A field with the hidden widget is not given to @rjsf (nor the code of its field kind); its value stays in the
  // form's data like any other.
  const language = useLanguage();
  const display = useMemo(() => schemaInWords(displaySchemaFor(module.schema, unseen, also), tr), [module, unseen, also, language]); // eslint-disable-line react-hooks/exhaustive-deps
  const uiText = JSON.stringify(uiSchemaFor(screen, display, ctx));
  const uiSchema = useMemo(() => JSON.parse(uiText) as UiSchema, [uiText]);

  // The catalogue's messages in the current language: the validator fills their {limit} after translation.
  const catalogue = useMemo(() => catalogueIn(services.messages, tr), [services.messages, language]); // eslint-disable-line react-hooks/exhaustive-deps
  const rules = useRef<FormRules>(null as unknown as FormRules);
  rules.current = { validate: module.validate, messagesAt: module.messagesAt, schema: module.schema, catalogue, hidden, unseen, required: also, bound };
  const validator = useMemo(() => createValidator(() => rules.current), []);

  const reset = useCallback(() => {
    const fresh = { ...initialData(), ...bound };
    data.current = fresh;
    setSeed(fresh);
    setAttempted(false);
    setExtraErrors(undefined);
    setFormKey((k) => k + 1);
  }, [initialData, bound]);
  const overrides = useMemo(() => ({ form: { data: data.current, reset }, reload }), [reset, reload]);
  const runtime = useActionRuntime(overrides);

  /** Validates and submits; true when everything it was asked to do succeeded. */
  const submit = async (): Promise<boolean> => {
    setAttempted(true);
    setRefusal(undefined);
    const { data: sentData, fieldErrors } = validateForm(rules.current, data.current);
    if (Object.keys(fieldErrors).length) return false;
    const submitCtx = { ...ctx, form: sentData };
    // Rules over the data and the context (an amount against the approved one): catalogue words on the field.
    const broken = brokenRules(screen, submitCtx, sentData, catalogue.messages);
    if (Object.keys(broken).length) {
      showErrors(toErrorSchema(broken));
      return false;
    }
    for (const check of screen.checks ?? []) {
      if (!condition(check.when, submitCtx, true)) continue;
      let valid: boolean;
      try {
        const result = await services.progress(services.api.call(check.operation, callInput(check, submitCtx)));
        valid = condition(check.valid, { ...submitCtx, result }, true);
      } catch {
        // spec §5: if the borrower e-mail check fails, the e-mail is treated as valid.
        valid = check.onFailure !== 'invalid';
      }
      if (!valid) {
        const message = catalogue.messages[check.message] ?? tr(check.message);
        showErrors(toErrorSchema({ [check.field]: [message] }));
        return false;
      }
    }
    setExtraErrors(undefined);
    if (!screen.submit) return true;
    const { label: _label, body, download, sendForm, ...call } = screen.submit;
    const action: SubmitAction | DownloadAction = { type: download ? 'download' : 'submit', ...call };
    // sendForm false: the body is `body` alone (a call whose body wraps the form's data, e.g. in a list of one item).
    const sent = { ...(sendForm === false ? {} : sentData), ...compact(bind(body as Data | undefined, submitCtx)) };
    // A 400 naming fields of this form shows its messages on them too (besides the error toast of spec §8).
    const showingFieldErrors = <A extends unknown[], R>(send: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
      try {
        return await send(...args);
      } catch (error) {
        const onFields = fieldErrorsOf(error, paths);
        if (onFields) showErrors(toErrorSchema(onFields));
        throw error;
      }
    };
    return runActions([action], submitCtx, { ...runtime, call: showingFieldErrors(runtime.call), download: showingFieldErrors(runtime.download), form: { data: sent, reset }, refused: setRefusal });
  };
  // The wizard's Next submits through @rjsf, which shows the errors and focuses the first one, or calls onSubmit.
  const formRef = useRef<Form>(null);
  const pendingSave = useRef<((saved: boolean) => void) | null>(null);
  useEffect(() => {
    if (!step) return;
    step.provideSave(
      () =>
        new Promise<boolean>((resolve) => {
          pendingSave.current = resolve;
          formRef.current?.submit();
        }),
    );
    return () => step.provideSave(null);
  }, [step]);
  const settle = (saved: boolean) => {
    const resolve = pendingSave.current;
    pendingSave.current = null;
    resolve?.(saved);
  };

  // A page's heading and intro paint before its fields (decision 0247): the fields are the heaviest render of a form
  // page (about 1 s of a phone's CPU for the pre-qualification form). They render once the next frame is painted.
  // A dialog's form, opened by a click, draws at once.
  const [fieldsDrawn, setFieldsDrawn] = useState(!!screen.dialog);
  useEffect(() => (fieldsDrawn ? undefined : afterPaint(() => setFieldsDrawn(true))), [fieldsDrawn]);

  // In a wizard the wizard's Back and Next are the buttons.
  const buttons: Button[] = step ? [] : (screen.buttons ?? [{ id: 'submit', label: screen.submit?.label ?? tr('Submit'), variant: 'primary', submit: true }]);
  return (
    <Box ref={box} data-screen="form" data-form={screen.schema}>
      {screen.dialog ? null : <ScreenTitle>{text(screen.title, ctx)}</ScreenTitle>}
      {screen.intro ? (
        <Text mb="4" whiteSpace="pre-line">
          {text(screen.intro, ctx)}
        </Text>
      ) : null}
      {fieldsDrawn ? (
        <Form
          ref={formRef}
          key={formKey}
          schema={display}
          uiSchema={uiSchema}
          formData={data.current}
          validator={validator as never}
          templates={templates}
          widgets={widgets}
          onChange={(e) => {
            data.current = (e.formData ?? {}) as Data;
            step?.keepDraft(data.current);
            const next = shapeOf({ ...context, form: { ...data.current, ...bound } });
            if (next.key !== shape.key) setShape(next.key);
            if (extraErrors) setExtraErrors(undefined);
            setRefusal(undefined);
          }}
          onSubmit={() => {
            if (pendingSave.current) void submit().then(settle, () => settle(false));
            else if (step) step.next();
            else void submit();
          }}
          onError={() => {
            setAttempted(true);
            // Turning live validation on re-validates in @rjsf, which keeps only some errors (a group's own, such as
            // owners that do not total 100, went): what this submit found stays shown as extra errors until the next
            // change.
            showErrors(toErrorSchema(validateForm(rules.current, data.current).fieldErrors));
            settle(false);
          }}
          noHtml5Validate
          showErrorList={false}
          liveValidate={attempted ? 'onChange' : undefined}
          extraErrors={extraErrors as never}
          experimental_defaultFormStateBehavior={{ constAsDefaults: 'never', emptyObjectFields: 'skipDefaults' }}
        >
          <Refusal sentence={refusal} />
          <ButtonRow buttons={buttons} context={ctx} runtime={runtime} justify={screen.dialog ? 'flex-end' : 'flex-start'} />
        </Form>
      ) : (
        <Loading />
      )}
    </Box>
  );
}
