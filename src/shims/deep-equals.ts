/**
 * Stand-in for @rjsf/utils' deepEquals (fast-equals' createCustomEqual, ~8 KB): what @rjsf compares is JSON-like
 * (schemas, ui schemas, form data, props), so plain values, arrays, plain objects and dates cover it. As in the
 * original, any two functions are equal and circular references do not loop (decision 0046).
 */
export default function deepEquals(a: unknown, b: unknown): boolean {
  return equal(a, b, new WeakMap());
}

function equal(a: unknown, b: unknown, seen: WeakMap<object, object>): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a === 'function' && typeof b === 'function') return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => equal(item, (b as unknown[])[i], seen));
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], seen));
}
