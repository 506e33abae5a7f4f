/**
 * The expression context (docs/decisions/0040): { session, route, brand, cond, flags, flow, locale (the language people
 * read, decision 0216), year, today (MM/dd/yyyy, the browser's day), … plus what a screen adds:
 * form, row, item, dialog, result, data, filter, value }. Named conditions of screens/conditions.json are evaluated in
 * order into `cond`, each seeing the ones before it. Pure.
 */
import { SOURCE_LANGUAGE } from '../../core/current-language.ts';
import { evaluate, truthy, type Context } from '../../core/expressions.ts';

export interface RouteInfo {
  name: string;
  path: string;
  params: Record<string, string | undefined>;
  query: Record<string, string>;
  /** Set on a route of a flow (screens/lenders/): the flow's code and this route's step. */
  flow?: { code: string; step: string };
}

export interface BaseContextInput {
  session: Record<string, unknown>;
  route: RouteInfo;
  brand: Record<string, unknown>;
  conditions: Record<string, unknown>;
  flags: Record<string, boolean>;
  /** The descriptor of the route's flow (its journey, columns, texts), as `flow`. */
  flow?: Record<string, unknown>;
  locale?: string;
  now?: Date;
}

export function evaluateConditions(conditions: Record<string, unknown>, base: Context): Record<string, boolean> {
  const cond: Record<string, boolean> = {};
  for (const [name, expression] of Object.entries(conditions)) cond[name] = truthy(evaluate(expression, { ...base, cond }));
  return cond;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function buildContext(input: BaseContextInput): Context {
  const now = input.now ?? new Date();
  const base: Context = {
    session: input.session,
    route: input.route,
    brand: input.brand,
    flags: input.flags,
    ...(input.flow ? { flow: input.flow } : {}),
    locale: input.locale ?? SOURCE_LANGUAGE.locale,
    year: now.getFullYear(),
    today: `${pad(now.getMonth() + 1)}/${pad(now.getDate())}/${now.getFullYear()}`,
  };
  return { ...base, cond: evaluateConditions(input.conditions, base) };
}

/** The type of the config items that are feature flags (spec §3). */
export const FLAG_TYPE = 'feature-flag';

/** Feature flags from config items of their type: enabled and not valued 'false'. */
export function flagsOf(items: ReadonlyArray<{ type?: string; name?: string; value?: string | null; isEnabled?: boolean }>): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const item of items) {
    if (item.type !== FLAG_TYPE || !item.name) continue;
    flags[item.name] = item.isEnabled !== false && String(item.value ?? 'true').toLowerCase() !== 'false';
  }
  return flags;
}

export function queryOf(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search).entries());
}

/** The query of an address of the hash router ('#/app/auth/7?lang=es'), or of the page's own search. */
export function addressQuery(location: Pick<Location, 'hash' | 'search'>): Record<string, string> {
  return queryOf(location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : location.search);
}
