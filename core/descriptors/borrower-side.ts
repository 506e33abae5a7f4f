/**
 * The descriptors a borrower reads (decision 0216): the routes marked `translated`, every lender file and its flow, the
 * layouts those use, and the pages and dialogs they name, followed from one to the next. A language must translate
 * their texts; the build's unit test checks it (codegen/texts.ts adds the forms' and enumerations' words, the messages
 * and the engine's own), and the studio shows how much of them each language covers.
 */
import { textsAt } from './meta.ts';
import type { TextsByPlace } from './translation-state.ts';

type Doc = Record<string, unknown>;

export interface BorrowerSide {
  texts: TextsByPlace;
  /** The form schemas its form screens use. */
  forms: Set<string>;
  /** Every screen it shows, by path ('pages/lender-sign.json'). */
  screens: Set<string>;
}

/** Walks a descriptor for the screens it names: `screen` (pages) and `dialog` (dialogs) values. */
function namedScreens(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => namedScreens(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Doc)) {
      if (key === 'screen' && typeof value === 'string') out.push(`pages/${value}.json`);
      else if (key === 'dialog' && typeof value === 'string') out.push(`dialogs/${value}.json`);
      else namedScreens(value, out);
    }
  }
  return out;
}

/** `docs`: the set's descriptor files, fragments expanded, by path under screens/ ('routes.json', 'brands/smile.json'). */
export function borrowerSide(docs: ReadonlyMap<string, Doc>): BorrowerSide {
  const texts = new Map<string, string[]>();
  const add = (relative: string, doc: unknown, schemaRef: string) => {
    for (const [pointer, shown] of textsAt(doc, schemaRef)) texts.set(`screens/${relative}#${pointer}`, shown);
  };
  for (const [relative, brand] of docs) {
    if (!relative.startsWith('brands/')) continue;
    for (const [key, word] of Object.entries((brand.wording ?? {}) as Record<string, string>)) texts.set(`screens/${relative}#/wording/${key}`, [word]);
  }
  const routes = docs.get('routes.json') ?? {};
  add('routes.json', routes, 'routes.schema.json');
  const layouts = ((docs.get('layouts.json') ?? {}).layouts ?? {}) as Record<string, Doc>;
  const usedLayouts = new Set<string>();
  const queue: string[] = [];
  for (const route of (routes.routes ?? []) as Doc[]) {
    if (route.translated !== true) continue;
    usedLayouts.add(String(route.layout));
    queue.push(...namedScreens(route));
  }
  for (const [relative, lender] of docs) {
    if (!relative.startsWith('lenders/')) continue;
    add(relative, lender, 'lender.schema.json');
    for (const route of (lender.routes ?? []) as Doc[]) usedLayouts.add(String(route.layout));
    queue.push(...namedScreens(lender.routes));
  }
  for (const name of usedLayouts) {
    const layout = layouts[name];
    for (const [pointer, shown] of textsAt(layout, 'layouts.schema.json#/$defs/layout')) texts.set(`screens/layouts.json#/layouts/${name}${pointer}`, shown);
    queue.push(...namedScreens(layout));
  }
  const screens = new Set<string>();
  const forms = new Set<string>();
  while (queue.length) {
    const relative = queue.shift()!;
    const doc = docs.get(relative);
    if (screens.has(relative) || !doc) continue;
    screens.add(relative);
    add(relative, doc, `screen.schema.json#/$defs/${String(doc.kind)}`);
    if (doc.kind === 'form' && typeof doc.schema === 'string') forms.add(doc.schema);
    queue.push(...namedScreens(doc));
  }
  return { texts, forms, screens };
}
