import type { ErrorObject } from 'ajv/dist/2020.js';

/** schemas/messages.json: the §5 texts by key, and which key each validation keyword uses. */
/** Keys the server itself relies on; the catalogue loader refuses a catalogue without them. */
export const REQUIRED_MESSAGES = ['required', 'serverError', 'invalidJson', 'unknownField', 'numeric', 'controlCharacter', 'idempotencyKeyRequired'] as const;

export interface MessageCatalogue {
  messages: Record<string, string> & Record<(typeof REQUIRED_MESSAGES)[number], string>;
  keywords: Record<string, string>;
}

export type FieldErrors = Record<string, string[]>;

/** The catalogue with its messages passed through `words` (a language, decision 0216); {limit} is filled after. */
export function catalogueIn(catalogue: MessageCatalogue, words: (source: string) => string): MessageCatalogue {
  const messages = Object.fromEntries(Object.entries(catalogue.messages).map(([key, message]) => [key, words(message)]));
  return { ...catalogue, messages: messages as MessageCatalogue['messages'] };
}

/** The field a validation error belongs to, as a dotted path ('address.city'); '$' is the whole object. */
function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') parts.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') parts.push(params.additionalProperty);
  if (error.keyword === 'unevaluatedProperties' && typeof params.unevaluatedProperty === 'string') parts.push(params.unevaluatedProperty);
  return parts.length ? parts.join('.') : '$';
}

function catalogueKey(catalogue: MessageCatalogue, error: ErrorObject): string | undefined {
  const own = (error.parentSchema?.['x-messages'] ?? {}) as Record<string, string>;
  const params = error.params as Record<string, unknown>;
  // Type and format errors can be told apart by what was expected: 'type:integer', 'format:email'.
  const typed = error.keyword === 'type' ? `type:${String(params.type)}` : error.keyword === 'format' ? `format:${String(params.format)}` : undefined;
  return (
    own[error.keyword] ??
    (typed ? own[typed] ?? catalogue.keywords[typed] : undefined) ??
    catalogue.keywords[error.keyword]
  );
}

/** Fills {limit} (and any other {param}) from the error's own params, i.e. from the schema's bound. */
function fill(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

/**
 * Turns ajv errors into the field → messages map of a 400 problem. Errors raised inside an
 * anyOf/oneOf branch are dropped in favour of the combinator's own message.
 */
export function toFieldErrors(catalogue: MessageCatalogue, errors: readonly ErrorObject[]): FieldErrors {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath + '/');
  const result: FieldErrors = {};
  for (const error of errors) {
    if (combinators.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    if (error.keyword === 'if') continue;
    const key = catalogueKey(catalogue, error);
    const text = (key && catalogue.messages[key]) || error.message || 'This field is not valid.';
    const field = fieldOf(error);
    const message = fill(text, error.params as Record<string, unknown>);
    const list = (result[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return result;
}
