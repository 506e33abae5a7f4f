/**
 * Stand-in for fast-uri, which @rjsf/utils uses to resolve $ref URIs: the form schemas @rjsf renders have every $ref
 * inlined at codegen time (codegen/ui-generators.ts), so WHATWG URL is enough for the rest (decision 0046).
 */
function resolve(base: string, ref: string): string {
  try {
    return new URL(ref, base || undefined).href;
  } catch {
    return ref;
  }
}

function equal(a: string, b: string): boolean {
  return resolve('', a) === resolve('', b);
}

const UriResolver = { resolve, equal };
export default UriResolver;
