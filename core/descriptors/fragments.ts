/**
 * Fragments (issue 18, docs/decisions/0224): a part written once in a file of screens/fragments/ and used by name wherever
 * a value goes — `{ "$use": "applicationId" }`, or with values for the fragment's parameters,
 * `{ "$use": "openApplication", "with": { "appId": { "var": "row.id" } } }`, which the fragment reads as
 * `{ "$param": "appId" }`. A fragment may use other fragments. Uses are replaced before a descriptor is validated, so
 * the meta-schemas, the engine and the server only ever see whole descriptors. Pure: the build, the server, the tests
 * and the studio expand alike.
 */
import type { FragmentsDescriptor } from '../../codegen/generated/descriptors.ts';
import { pointerSegment, quoted, shortened } from './errors.ts';

export type Fragments = FragmentsDescriptor['fragments'];

/** A use or a parameter that cannot be expanded; `pointer` is where in the document being expanded (JSON pointer). */
export class FragmentError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> => !!value && typeof value === 'object' && !Array.isArray(value);
const pointerTo = (base: string, key: string | number) => `${base}/${pointerSegment(key)}`;

/** The document with every `$use` replaced by its fragment; throws FragmentError for a use it cannot expand. */
export function expandFragments<T>(doc: T, fragments: Fragments): T {
  return expand(doc as Json, fragments, '', undefined, []) as T;
}

/** The names of the fragments a document uses, directly or through other fragments (for the unused-fragment check). */
export function fragmentsUsed(doc: unknown, fragments: Fragments, into = new Set<string>()): Set<string> {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      const name = node.$use;
      if (typeof name === 'string' && !into.has(name)) {
        into.add(name);
        walk(fragments[name]?.value);
      }
      Object.values(node).forEach(walk);
    }
  };
  walk(doc);
  return into;
}

function expand(node: Json, fragments: Fragments, pointer: string, args: Record<string, Json> | undefined, stack: string[]): Json {
  if (Array.isArray(node)) return node.map((item, index) => expand(item, fragments, pointerTo(pointer, index), args, stack));
  if (!isObject(node)) return node;
  if ('$param' in node) return parameter(node, pointer, args);
  if ('$use' in node) return use(node, fragments, pointer, args, stack);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, expand(value, fragments, pointerTo(pointer, key), args, stack)]));
}

function parameter(node: Record<string, Json>, pointer: string, args: Record<string, Json> | undefined): Json {
  const name = node.$param;
  if (typeof name !== 'string' || Object.keys(node).length !== 1) throw new FragmentError(pointer, 'a parameter is written { "$param": "<name>" } and nothing else');
  if (!args) throw new FragmentError(pointer, `$param ${quoted(name)} is read outside a fragment`);
  if (!(name in args)) throw new FragmentError(pointer, `$param ${quoted(name)} is not a parameter of this fragment`);
  return args[name]!;
}

function use(node: Record<string, Json>, fragments: Fragments, pointer: string, args: Record<string, Json> | undefined, stack: string[]): Json {
  const { $use: name, with: given = {}, ...rest } = node;
  if (typeof name !== 'string') throw new FragmentError(pointer, '$use names a fragment of screens/fragments/');
  if (Object.keys(rest).length) throw new FragmentError(pointer, `a use of ${quoted(name)} has only "$use" and "with" (found ${Object.keys(rest).map((k) => `"${shortened(k)}"`).join(', ')})`);
  const fragment = fragments[name];
  if (!fragment) throw new FragmentError(pointer, `there is no fragment ${quoted(name)} in screens/fragments/`);
  if (stack.includes(name)) throw new FragmentError(pointer, `fragment ${quoted(name)} uses itself (${[...stack, name].map((n) => shortened(n)).join(' → ')})`);
  if (!isObject(given)) throw new FragmentError(pointerTo(pointer, 'with'), 'with gives the fragment\'s parameters by name');
  const params = fragment.params ?? [];
  const missing = params.filter((p) => !(p in given));
  const unknown = Object.keys(given).filter((p) => !params.includes(p));
  if (missing.length) throw new FragmentError(pointer, `fragment ${quoted(name)} needs ${missing.map(quoted).join(', ')} in "with"`);
  if (unknown.length) throw new FragmentError(pointerTo(pointer, 'with'), `fragment ${quoted(name)} has no parameter ${unknown.map(quoted).join(', ')}`);
  // The values are the user's: expanded where they are written, with the user's own parameters.
  const values = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, expand(value, fragments, pointerTo(pointerTo(pointer, 'with'), key), args, stack)]));
  try {
    return expand(fragment.value as Json, fragments, '', values, [...stack, name]);
  } catch (error) {
    if (!(error instanceof FragmentError)) throw error;
    throw new FragmentError(pointer, `in fragment ${quoted(name)}${error.pointer ? ` at ${error.pointer}` : ''}: ${error.message}`);
  }
}
