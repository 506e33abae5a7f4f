import { screensFile } from '../../../core/descriptors/read.ts';
import { perLiveSet } from '../../descriptors/live.ts';
import type { LenderCatalogue } from '../../lenders/registry.ts';
import type { Stage } from '../applications/status.ts';
import { AFTER_SIGNING } from '../../../core/signing-stages.ts';

/**
 * Where the borrower goes next (docs/decisions/0103): `/app/borrower/{id}` and `/app/{id}` read
 * `nextRoute` from App_GetApp and navigate there. Paths come from the route table (screens/routes.json)
 * and the lender files, never from code: the prequal pages by route name, a lender's steps by the
 * `step` of its routes and the order of its `journey`.
 */
interface RouteTable {
  lenderFlows: { pathPrefix: string };
  routes: { name: string; path: string }[];
}

let deployed: RouteTable | undefined;
/** The route table as the browser has it: deployed, or as the live studio publication serves it (decision 0241). */
const routeTable = perLiveSet((set): RouteTable => (set.served['routes.json'] as RouteTable | undefined) ?? (deployed ??= screensFile<RouteTable>('routes.json')));

/** '/app/prequal/:id?' with {id: 5} → '/app/prequal/5'; optional parameters without a value go. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  const filled = path.replace(/:(\w+)\??/g, (_, name: string) => (params[name] === undefined ? '' : encodeURIComponent(String(params[name]))));
  return filled.replace(/\/+$/, '').replace(/\/{2,}/g, '/') || '/';
}

export function routePath(name: string, params: Record<string, string | number> = {}): string {
  const route = routeTable().routes.find((r) => r.name === name);
  if (!route) throw new Error(`screens/routes.json has no route '${name}'`);
  return fillPath(route.path, params);
}

export function lenderStepPath(catalogue: LenderCatalogue, code: string, step: string, appId: number): string | null {
  const descriptor = catalogue.get(code)?.descriptor;
  const route = descriptor?.routes.find((r) => r.step === step);
  if (!route) return null;
  const prefix = routeTable().lenderFlows.pathPrefix.replace('{code}', code);
  return fillPath(prefix + route.path, { id: appId });
}

/** The state the next step depends on. */
export interface JourneyState {
  id: number;
  stage: Stage;
  decisionStatus: string | null;
  isOfferMatch: boolean;
  lenderCode: string | null;
  lenderAppUrl: string | null;
  consented: boolean;
  kbaPassed: boolean;
}

export function nextRoute(catalogue: LenderCatalogue, state: JourneyState): string | null {
  const { id, stage } = state;
  if (state.decisionStatus === null && stage === 'NotApplicable') return routePath('app-prequal-id', { id });
  if (stage === 'Declined' || stage === 'Review') return routePath('app-prequal-nomatch');
  if (stage === 'NotApplicable') return routePath(state.isOfferMatch ? 'app-prequal-match' : 'app-prequal-nomatch');
  if (stage === 'NeedsAttention' || stage === 'Expired' || stage === 'Cancelled') return null;
  const code = state.lenderCode;
  const journey = code ? catalogue.get(code)?.descriptor.journey : undefined;
  if (!code || !journey) return null;
  const step = (name: string | undefined) => (name ? lenderStepPath(catalogue, code, name, id) : null);
  if (stage === 'OfferSelected') {
    const at = journey.steps.indexOf('select');
    const after = at >= 0 ? journey.steps[at + 1] : undefined;
    if (after) return step(after);
    return journey.esign === 'lender' ? state.lenderAppUrl : step(journey.consent);
  }
  if (stage === 'SigningRequired') {
    if (journey.esign === 'lender') return state.lenderAppUrl;
    if (!state.consented) return step(journey.consent);
    if (!state.kbaPassed) return step(journey.kba);
    return step(journey.sign);
  }
  if (AFTER_SIGNING.includes(stage)) return step(journey.done);
  return null;
}
