/**
 * Which descriptors make the borrower's side (decision 0216): the routes marked `translated`, every lender file and its
 * flow, the layouts those use, and the pages and dialogs they name, followed from one to the next. It reads no file:
 * the set's checks (check.ts) use it, and the web app's engine imports check.ts, so nothing here may reach Node.js.
 */
type Doc = Record<string, unknown>;

export interface BorrowerScreens {
  /** The lender files, by path ('lenders/powerpay.json'). */
  lenders: Map<string, Doc>;
  /** The layouts those routes and flows use, by name. */
  layouts: Map<string, Doc | undefined>;
  /** Every screen it shows, by path ('pages/lender-sign.json'), in the order they were reached. */
  screens: Map<string, Doc>;
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
export function borrowerScreens(docs: ReadonlyMap<string, Doc>): BorrowerScreens {
  const allLayouts = ((docs.get('layouts.json') ?? {}).layouts ?? {}) as Record<string, Doc>;
  const routes = (((docs.get('routes.json') ?? {}).routes ?? []) as Doc[]).filter((route) => route.translated === true);
  const lenders = new Map([...docs].filter(([relative]) => relative.startsWith('lenders/')));
  const usedLayouts = new Set<string>();
  const queue: string[] = [];
  for (const route of routes) {
    usedLayouts.add(String(route.layout));
    queue.push(...namedScreens(route));
  }
  for (const lender of lenders.values()) {
    for (const route of (lender.routes ?? []) as Doc[]) usedLayouts.add(String(route.layout));
    queue.push(...namedScreens(lender.routes));
  }
  const layouts = new Map([...usedLayouts].map((name) => [name, allLayouts[name]]));
  for (const layout of layouts.values()) queue.push(...namedScreens(layout));
  const screens = new Map<string, Doc>();
  while (queue.length) {
    const relative = queue.shift()!;
    const doc = docs.get(relative);
    if (screens.has(relative) || !doc) continue;
    screens.set(relative, doc);
    queue.push(...namedScreens(doc));
  }
  return { lenders, layouts, screens };
}
