/**
 * What the binder does to input before the contract's validators see it (docs/decisions/0170-input-hygiene.md):
 * text people typed loses its control characters (and lone surrogates), path and query values that carry any are refused, numbers must be
 * finite, a body nests no deeper than MAX_NESTING (decision 0249), and a multipart `model` part is parsed as strictly as a JSON body.
 */
import type { ParameterSpec } from '../../core/contract/operations.ts';
import type { MessageCatalogue } from '../../core/messages.ts';
import { HttpProblem } from './problem.ts';

/** Control characters no person means in text: C0 but tab, line feed and carriage return, and DEL (PostgreSQL refuses NUL). */
const TYPED_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/** In an address (path and query values: ids, codes, tokens, filters) no control character belongs at all. */
const ADDRESS_CONTROL = /[\u0000-\u001F\u007F]/;

/** Half of a UTF-16 surrogate pair without the other half: not a character, and PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` without the control characters a paste can bring along, and with a lone surrogate replaced by U+FFFD (as
 * encoding it as UTF-8 would), so that every string a handler sees is well-formed Unicode.
 */
export const cleanText = (text: string): string => text.replace(TYPED_CONTROL, '').replace(LONE_SURROGATE, '\ufffd');

/**
 * Drops control characters from every string of a parsed JSON body, in place. Iterative, not recursive: a hostile
 * body may nest thousands deep before the validators refuse it.
 */
export function cleanBody(body: unknown): unknown {
  if (typeof body === 'string') return cleanText(body);
  const pending: unknown[] = [body];
  while (pending.length) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (typeof value === 'string') record[key] = cleanText(value);
      else if (value && typeof value === 'object') pending.push(value);
    }
  }
  return body;
}

/** Refuses path and query values that hold a control character, naming each such parameter. */
export function refuseControlCharacters(values: Record<string, unknown>, catalogue: MessageCatalogue): void {
  const wrong = Object.entries(values).filter(([, value]) => typeof value === 'string' && ADDRESS_CONTROL.test(value));
  if (wrong.length) throw HttpProblem.validation(Object.fromEntries(wrong.map(([name]) => [name, [catalogue.messages.controlCharacter]])));
}

/**
 * Refuses coerced path and query numbers that are not finite: ajv turns '1e400' into Infinity and does not check the
 * type again after coercing, so a parameter without a maximum would let it through to the database.
 */
export function refuseNonFinite(values: Record<string, unknown>, parameters: readonly ParameterSpec[], catalogue: MessageCatalogue): void {
  const wrong = Object.entries(values).filter(([, value]) => typeof value === 'number' && !Number.isFinite(value));
  if (!wrong.length) return;
  const message = (name: string) => {
    const integer = parameters.find((p) => p.name === name)?.schema.type === 'integer';
    return catalogue.messages[catalogue.keywords[integer ? 'type:integer' : 'type'] ?? 'numeric'] ?? catalogue.messages.numeric;
  };
  throw HttpProblem.validation(Object.fromEntries(wrong.map(([name]) => [name, [message(name)]])));
}

/**
 * Refuses a JSON body holding a number JSON cannot carry (`1e400` parses to Infinity): the schemas' number checks catch
 * it where a number is expected, but a free-form part (a studio draft) would store it as null. Iterative, like cleanBody.
 */
export function refuseNonFiniteInBody(body: unknown, catalogue: MessageCatalogue): void {
  const pending: Array<{ node: unknown; path: string }> = [{ node: body, path: '' }];
  while (pending.length) {
    const { node, path } = pending.pop()!;
    if (typeof node === 'number' && !Number.isFinite(node)) throw HttpProblem.validation({ [path || '$']: [catalogue.messages.numeric] });
    if (!node || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) pending.push({ node: value, path: path ? `${path}.${key}` : key });
  }
}

/**
 * How deep a JSON body or model part may nest (decision 0249): several times what the contract describes (a studio
 * draft's documents nest about 20 deep), far below what a recursive walk of it can take.
 */
const MAX_NESTING = 64;

/**
 * Refuses a parsed JSON value nested deeper than MAX_NESTING, naming it `field`. Measured iteratively, before anything
 * recursive (the validators, the studio's checks, a reviver) walks it: JSON.parse itself takes any depth.
 */
export function refuseDeepNesting(value: unknown, field: string): void {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 1 }];
  while (pending.length) {
    const { node, depth } = pending.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth > MAX_NESTING) throw HttpProblem.validation({ [field]: [`This value is nested more than ${MAX_NESTING} levels deep.`] });
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
}

/**
 * JSON.parse for a multipart `model` part, refusing what a JSON body is refused: nesting deeper than MAX_NESTING, and
 * what Fastify's JSON body parser refuses, a `__proto__` key or a `constructor` holding a `prototype` at any depth
 * (either could reach an object's prototype when the model is spread or merged). The reviver that finds those walks
 * recursively, so the text is parsed once without it and measured first.
 */
export function parseModel(text: string, catalogue: MessageCatalogue): unknown {
  const invalid = () => HttpProblem.validation({ model: [catalogue.messages.invalidJson] });
  let plain: unknown;
  try {
    plain = JSON.parse(text);
  } catch {
    throw invalid();
  }
  refuseDeepNesting(plain, 'model');
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__' || (key === 'constructor' && value && typeof value === 'object' && Object.hasOwn(value, 'prototype'))) throw new SyntaxError('prototype key');
      return value;
    });
  } catch {
    throw invalid();
  }
}
