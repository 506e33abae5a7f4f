/**
 * The code a screen needs beyond the app's entry, by what the engine loads it for: a screen kind, a layout component,
 * a page descriptor, a form schema; and each language's words. The web app's build writes it beside the app
 * (scripts/route-chunks.ts); the server puts a painted route's share in the first paint, so the phone fetches that code
 * while the entry runs instead of one wave after another (decision 0296). Files are relative to the entry chunk.
 */
export interface RouteChunks {
  kind: Record<string, string[]>;
  layout: Record<string, string[]>;
  page: Record<string, string[]>;
  form: Record<string, string[]>;
  language: Record<string, string[]>;
}

export const ROUTE_CHUNKS_FILE = 'route-chunks.json';

/** What a screen of this kind, layout, page and form schema loads, each file once. */
export function chunksOf(chunks: RouteChunks, need: Partial<Record<'kind' | 'layout' | 'page' | 'form', string | undefined>>): string[] {
  const lists = (['layout', 'page', 'kind', 'form'] as const).map((category) => {
    const name = need[category];
    return name === undefined ? [] : (chunks[category][name] ?? []);
  });
  return [...new Set(lists.flat())];
}
