/**
 * @rjsf's ValidatorType over a validator precompiled by `npm run codegen` (no ajv compile in the browser, so the
 * app runs under a CSP without 'unsafe-eval'). Messages come from schemas/messages.json through the server's own
 * `toFieldErrors`, so the browser and a 400 answer say the same words (spec §5).
 */
import type { ErrorObject } from 'ajv';
import { toFieldErrors, type FieldErrors, type MessageCatalogue } from '../../../core/messages.ts';
import type { PrecompiledValidator } from '../form-module.ts';
import { cleanData, concretePaths, getIn, isEmptyValue, toErrorSchema } from './model.ts';

export interface FormRules {
  /** The full contract schema's validator. */
  validate: PrecompiledValidator;
  /** Where the schema's x-messages overrides sit (FormModule.messagesAt). */
  messagesAt: Record<string, Record<string, string>>;
  /** The display schema (x-emptyValues, properties). */
  schema: Record<string, unknown>;
  catalogue: MessageCatalogue;
  /** Fields not shown by their conditions: left out of the data. */
  hidden: ReadonlySet<string>;
  /** Fields the user does not see (hidden, or hidden inputs such as officeId): their errors show for the whole form. */
  unseen: ReadonlySet<string>;
  /** Fields a descriptor condition makes required ('Only the channels enabled for the popup are required'). */
  required: ReadonlySet<string>;
  /** Values bound from the context (officeId), merged over the typed data. */
  bound: Record<string, unknown>;
}

/** Gives each error the x-messages of the schema object holding its keyword, as ajv's `verbose` parentSchema would. */
export function withParentMessages(errors: readonly SchemaErrorLike[], messagesAt: Record<string, Record<string, string>>): ErrorObject[] {
  return errors.map((e) => {
    const parent = e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/')) || '#';
    const own = messagesAt[parent];
    return { ...e, parentSchema: own ? { 'x-messages': own } : {} } as unknown as ErrorObject;
  });
}

type SchemaErrorLike = { schemaPath: string; keyword: string; instancePath: string; params: Record<string, unknown> };

export interface ValidationResult {
  data: Record<string, unknown>;
  fieldErrors: FieldErrors;
}

/** The data as sent, and its errors by field ('$' for the whole form), in catalogue words. */
export function validateForm(rules: FormRules, formData: Record<string, unknown> | undefined): ValidationResult {
  const data = cleanData(rules.schema, { ...(formData ?? {}), ...rules.bound }, rules.hidden);
  const ok = rules.validate(data);
  const fieldErrors: FieldErrors = ok ? {} : toFieldErrors(rules.catalogue, withParentMessages(rules.validate.errors ?? [], rules.messagesAt));
  for (const required of rules.required) {
    for (const field of concretePaths(data, required)) {
      if (!isEmptyValue(undefined, getIn(data, field))) continue;
      const text = rules.catalogue.messages.required;
      fieldErrors[field] = [text, ...(fieldErrors[field] ?? []).filter((m) => m !== text)];
    }
  }
  // A field the user cannot see cannot be fixed by the user: its errors show for the whole form.
  for (const field of Object.keys(fieldErrors)) {
    if (field !== '$' && (rules.unseen.has(field) || rules.unseen.has(field.split('.')[0]!))) {
      fieldErrors.$ = [...(fieldErrors.$ ?? []), ...fieldErrors[field]!];
      delete fieldErrors[field];
    }
  }
  return { data, fieldErrors };
}

interface RjsfError {
  name: string;
  property: string;
  message: string;
  stack: string;
  params: Record<string, never>;
  schemaPath: string;
}

/** The ValidatorType @rjsf calls; `rules()` is read at call time so conditions follow the form data. */
export function createValidator(rules: () => FormRules) {
  return {
    validateFormData(formData: Record<string, unknown> | undefined) {
      const { fieldErrors } = validateForm(rules(), formData);
      const errors: RjsfError[] = Object.entries(fieldErrors).flatMap(([field, messages]) =>
        messages.map((message) => ({
          name: 'rule',
          property: field === '$' ? '.' : `.${field}`,
          message,
          // @rjsf shows `stack` in some places and `message` in others: both carry the catalogue text.
          stack: message,
          params: {},
          schemaPath: '',
        })),
      );
      return { errors, errorSchema: toErrorSchema(fieldErrors) };
    },
    isValid() {
      // The rendered schema has no anyOf/oneOf alternatives to choose between.
      return true;
    },
    rawValidation(_schema: unknown, formData?: Record<string, unknown>) {
      const r = rules();
      r.validate(cleanData(r.schema, formData, r.hidden));
      return { errors: r.validate.errors ?? undefined };
    },
  };
}
