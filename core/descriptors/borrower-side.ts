/**
 * The texts of the descriptors a borrower reads (core/descriptors/borrower-screens.ts, decision 0216). A language must
 * translate them; the build's unit test checks it (codegen/texts.ts adds the forms' and enumerations' words, the messages
 * and the engine's own), and the studio shows how much of them each language covers.
 */
import { textsAt } from './meta.ts';
import type { TextsByPlace } from './translation-state.ts';
import { borrowerScreens } from './borrower-screens.ts';

type Doc = Record<string, unknown>;

export interface BorrowerSide {
  texts: TextsByPlace;
  /** The form schemas its form screens use. */
  forms: Set<string>;
  /** Every screen it shows, by path ('pages/lender-sign.json'). */
  screens: Set<string>;
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
  add('routes.json', docs.get('routes.json') ?? {}, 'routes.schema.json');
  const walked = borrowerScreens(docs);
  for (const [relative, lender] of walked.lenders) add(relative, lender, 'lender.schema.json');
  for (const [name, layout] of walked.layouts) {
    for (const [pointer, shown] of textsAt(layout, 'layouts.schema.json#/$defs/layout')) texts.set(`screens/layouts.json#/layouts/${name}${pointer}`, shown);
  }
  const forms = new Set<string>();
  for (const [relative, doc] of walked.screens) {
    add(relative, doc, `screen.schema.json#/$defs/${String(doc.kind)}`);
    if (doc.kind === 'form' && typeof doc.schema === 'string') forms.add(doc.schema);
  }
  return { texts, forms, screens: new Set(walked.screens.keys()) };
}
