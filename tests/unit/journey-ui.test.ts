/**
 * The borrower journey's screens are data (issue 5): every lender flow is described by its file in screens/lenders/
 * and walked by the shared lender-* pages, so a ninth lender needs no code. These tests read the real descriptors and
 * run their expressions and actions with the engine's own pure functions (the browser runs the same code):
 * - each flow's steps have routes and screens, and the conventions the shared pages rely on hold;
 * - on each signing step, the ceremony shows exactly the part the application's state calls for;
 * - "where next" (nextRoute) goes to an in-app route, or to the summary when the lender hosts the step;
 * - a throwaway ninth lender file passes the checks, gets its routes, its offers and its steps, with no code.
 */
import { describe, expect, it } from 'vitest';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';
import type { DescriptorFile } from '../../core/descriptors/set.ts';
import type { Action, LenderDescriptor, RoutesDescriptor } from '../../codegen/generated/descriptors.ts';
import { buildContext } from '../../src/engine/context.ts';
import { condition, evaluate, type Context } from '../../core/expressions.ts';
import { buildRouteTable, resolveTarget, type RouteEntry } from '../../src/engine/routing.ts';
import { runActions, type ActionRuntime } from '../../src/engine/actions.ts';
import { fakeRuntime } from '../support/action-runtime.ts';
import { screensFile } from '../../core/descriptors/read.ts';

type Json = Record<string, unknown>;
const read = <T = Json>(relative: string): T => screensFile<T>(relative);

const files = listDescriptorFiles();
const routes = read<RoutesDescriptor>('routes.json');
const lenderCodes = files.filter((f) => f.kind === 'lender').map((f) => f.relative.replace(/^lenders\/|\.json$/g, ''));
const lenders = lenderCodes.map((code) => read<LenderDescriptor>(`lenders/${code}.json`));
const conditions = read<{ conditions: Json }>('conditions.json').conditions;

/** The expression context of a flow route, as the router builds it (src/engine/router.tsx, use-context.ts). */
function flowContext(lender: LenderDescriptor, step: string, extra: Context = {}, session: Json = { borrowerAuthenticated: true, borrowerAppId: 7 }): Context {
  const route = lender.routes.find((r) => r.step === step)!;
  const table = buildRouteTable(routes, [lender]);
  const entry = table.find((r) => r.flow?.code === lender.code && r.flow.step === step)!;
  const path = entry.path.replace(/:id\??/, '7');
  return {
    ...buildContext({
      session,
      route: { name: entry.name, path, params: route.path.includes(':id') ? { id: '7' } : {}, query: {}, flow: { code: lender.code, step } },
      brand: { name: 'Test', wording: { service: 'Treatment', serviceLower: 'treatment' } },
      conditions,
      flags: {},
      flow: lender as unknown as Json,
    }),
    ...extra,
  };
}

/** A fake runtime that records where the actions went. */
function recorder(table: RouteEntry[]): { runtime: ActionRuntime; went: string[] } {
  const went: string[] = [];
  const runtime = fakeRuntime(table, {
    navigate: (path: string) => void went.push(`route ${path}`),
    assign: (href: string, replace?: boolean) => void went.push(`${replace ? 'replace' : 'assign'} ${href}`),
  });
  return { runtime, went };
}

describe('the eight lender flows of spec §2', () => {
  it('have exactly the steps and routes of §2', () => {
    const shape = Object.fromEntries(lenders.map((l) => [l.code, l.routes.map((r) => r.path).sort()]));
    expect(shape).toEqual({
      ally: ['esign/:id?', 'offers/:id?', 'offers/congrats', 'offers/select', 'sign/:id?'],
      cleargage: ['offers/:id?', 'offers/congrats', 'offers/select', 'offers/sign'],
      covered: ['offers/:id?', 'offers/congrats', 'offers/select'],
      gsky: [':id?', 'agmt/:id?', 'cta/:id?', 'offers/:id?', 'offers/congrats', 'offers/select'],
      lpoint: ['offers/:id?', 'offers/congrats', 'offers/select', 'offers/sign'],
      lusa: ['offers/:id?', 'offers/congrats', 'offers/select', 'offers/sign'],
      powerpay: ['offers/:id?', 'offers/congrats', 'offers/select', 'sign/:id?'],
      upg: ['offers/:id?'],
    });
  });

  it.each(lenders.map((l) => [l.code, l] as const))('%s: every journey step has a route and a screen, in the shapes the shared pages expect', (_code, lender) => {
    const steps = new Set(lender.routes.map((r) => r.step));
    for (const step of lender.journey.steps) expect(steps.has(step), `step ${step}`).toBe(true);
    for (const route of lender.routes) expect(files.some((f) => f.relative === `pages/${route.screen}.json`), route.screen).toBe(true);
    // The match page goes to `<code>-offers-id`, the offers page to `<code>-offers-select` when the flow has that step.
    expect(lender.routes.find((r) => r.name === 'offers-id')?.step).toBe('offers');
    if (lender.journey.steps.includes('select')) expect(lender.routes.find((r) => r.name === 'offers-select')?.step).toBe('select');
    // Platform signing: the consent, KBA and sign steps are pages of the signing ceremony.
    if (lender.journey.esign === 'platform') {
      for (const step of [lender.journey.consent, lender.journey.kba, lender.journey.sign]) {
        const screen = read<{ kind: string; source?: { operation: string } }>(`pages/${lender.routes.find((r) => r.step === step)!.screen}.json`);
        expect(screen.kind).toBe('composite');
        expect(screen.source?.operation).toBe('App_SubmitForESign');
      }
    }
    // Its offers table gets the lender's own columns; its offers are the ones of this lender.
    const table = read<{ columnsFrom: unknown; source: { filter: unknown } }>('pages/lender-offers-table.json');
    const ctx = flowContext(lender, 'offers');
    expect(evaluate(table.columnsFrom, ctx)).toEqual(lender.offerColumns);
    expect(condition(table.source.filter, { ...ctx, row: { lenderCode: lender.code, isVisible: true } }, true)).toBe(true);
    expect(condition(table.source.filter, { ...ctx, row: { lenderCode: 'someone-else', isVisible: true } }, true)).toBe(false);
  });
});

describe('the signing ceremony', () => {
  const ceremonyParts = (screen: string) => read<{ parts: Array<{ screen: string; visible?: unknown }> }>(`pages/${screen}.json`).parts;
  const visibleParts = (lender: LenderDescriptor, step: string, data: Json) => {
    const screen = lender.routes.find((r) => r.step === step)!.screen!;
    const ctx = flowContext(lender, step, { data });
    return ceremonyParts(screen).filter((p) => condition(p.visible, ctx, true)).map((p) => p.screen);
  };
  const opened = { appId: 7, consentedAtUtc: null, kbaStatus: null, signedAtUtc: null };
  const consented = { ...opened, consentedAtUtc: '2030-01-01T00:00:00Z' };
  const passed = { ...consented, kbaStatus: 'Passed' };
  const signed = { ...passed, signedAtUtc: '2030-01-01T00:10:00Z' };

  it('gsky: consent, questions and signature follow each other on agmt', () => {
    const gsky = lenders.find((l) => l.code === 'gsky')!;
    expect(visibleParts(gsky, 'agreement', opened)).toEqual(['lender-step-consent']);
    expect(visibleParts(gsky, 'agreement', consented)).toEqual(['lender-step-kba']);
    expect(visibleParts(gsky, 'agreement', { ...consented, kbaStatus: 'Pending' })).toEqual(['lender-step-kba']);
    expect(visibleParts(gsky, 'agreement', passed)).toEqual(['lender-step-terms', 'lender-step-sign']);
    expect(visibleParts(gsky, 'agreement', signed)).toEqual(['lender-step-signed']);
    // No ceremony to show (the documents are not ready, the call failed): on to where the application is.
    expect(visibleParts(gsky, 'agreement', {})).toEqual(['lender-step-elsewhere']);
  });

  it('ally: consent and questions on esign, the signature on sign', () => {
    const ally = lenders.find((l) => l.code === 'ally')!;
    expect(visibleParts(ally, 'esign', opened)).toEqual(['lender-step-consent']);
    expect(visibleParts(ally, 'esign', consented)).toEqual(['lender-step-kba']);
    expect(visibleParts(ally, 'esign', passed)).toEqual(['lender-step-elsewhere']);
    expect(visibleParts(ally, 'sign', opened)).toEqual(['lender-step-elsewhere']);
    expect(visibleParts(ally, 'sign', passed)).toEqual(['lender-step-terms', 'lender-step-sign']);
  });

  it.each(['cleargage', 'lpoint', 'lusa', 'powerpay'])('%s: everything on its sign step', (code) => {
    const lender = lenders.find((l) => l.code === code)!;
    expect(visibleParts(lender, 'sign', opened)).toEqual(['lender-step-consent']);
    expect(visibleParts(lender, 'sign', consented)).toEqual(['lender-step-kba']);
    expect(visibleParts(lender, 'sign', passed)).toEqual(['lender-step-terms', 'lender-step-sign']);
    expect(visibleParts(lender, 'sign', { ...passed, kbaStatus: 'Failed' })).toEqual(['lender-step-elsewhere']);
  });
});

describe('where the borrower goes next', () => {
  const table = buildRouteTable(routes, lenders);
  const signSubmit = read<{ submit: { onSuccess: Action[] } }>('pages/lender-step-sign.json').submit.onSuccess;

  it('an in-app nextRoute is followed without a history entry; none, or a lender-hosted one, goes to the summary', async () => {
    const gsky = lenders.find((l) => l.code === 'gsky')!;
    const ctx = flowContext(gsky, 'agreement');
    const cases: Array<[unknown, string]> = [
      [{ id: 7, nextRoute: '/app/gsky/cta/7' }, 'replace #/app/gsky/cta/7'],
      [{ id: 7, nextRoute: null }, 'route /app/borrower/7'],
      [{ id: 7, nextRoute: 'https://sandbox.lenders.example/upg/applications/1' }, 'route /app/borrower/7'],
    ];
    for (const [result, expected] of cases) {
      const { runtime, went } = recorder(table);
      expect(await runActions(signSubmit, { ...ctx, result }, runtime)).toBe(true);
      expect(went).toEqual([expected]);
    }
  });

  it('the borrower link page exchanges the token, and a spent link shows the passcode choice, keeping the token as proof of the link (decision 0173)', async () => {
    const page = read<{ onLoad: Action[] }>('pages/app-auth-id.json');
    const base = buildContext({ session: {}, route: { name: 'app-auth-id', path: '/app/auth/7', params: { id: '7' }, query: { t: 'a'.repeat(43) } }, brand: {}, conditions, flags: {} });
    const calls: unknown[] = [];
    const sessions: Json[] = [];
    const ok = recorder(table);
    ok.runtime.call = async (id, input) => (calls.push([id, input]), { token: 'tok', appId: 7, expiresAtUtc: '2030-01-01T00:00:00Z' });
    ok.runtime.setSession = (values) => void sessions.push(values);
    await runActions(page.onLoad, base, ok.runtime);
    expect(calls).toEqual([['Otp_ExchangeLinkToken', { body: { appId: 7, token: 'a'.repeat(43) } }]]);
    expect(sessions).toEqual([{ borrowerAuthenticated: true, borrowerToken: 'tok', borrowerAppId: 7 }]);
    expect(ok.went).toEqual(['route /app/borrower/7']);

    const spent = recorder(table);
    spent.runtime.call = async () => {
      throw new Error('401');
    };
    await runActions(page.onLoad, base, spent.runtime);
    expect(spent.went).toEqual([`route /app/auth/7?expired=1&k=${'a'.repeat(43)}`]);
  });
});

describe('a ninth lender is one JSON file', () => {
  // A copy of a platform-signing flow under a new code: nothing else changes.
  const acme = { ...read<Json>('lenders/powerpay.json'), code: 'acme', name: 'Acme Patient Credit' } as unknown as LenderDescriptor;
  const withAcme: DescriptorFile[] = [...files, { file: 'screens/lenders/acme.json', relative: 'lenders/acme.json', kind: 'lender', text: JSON.stringify(acme) }];

  it('passes the descriptor checks and gets its routes', async () => {
    const report = await checkDescriptors(withAcme);
    expect(report.errors).toEqual([]);
    const table = buildRouteTable(routes, [...lenders, acme]);
    expect(table.filter((r) => r.flow?.code === 'acme').map((r) => `${r.name} ${r.path}`)).toEqual([
      'acme-offers-id /app/acme/offers/:id?',
      'acme-offers-congrats /app/acme/offers/congrats',
      'acme-offers-select /app/acme/offers/select',
      'acme-sign-id /app/acme/sign/:id?',
    ]);
  });

  it('is reached from the match page, shows its own offers and walks its own steps', async () => {
    const table = buildRouteTable(routes, [...lenders, acme]);
    const match = read<{ columns: Array<{ buttons?: Array<{ actions: Action[] }> }> }>('pages/app-prequal-match.json');
    const view = match.columns.find((c) => c.buttons)!.buttons![0]!.actions;
    const { runtime, went } = recorder(table);
    const matchCtx = buildContext({ session: { borrowerAppId: 7 }, route: { name: 'app-prequal-match', path: '/app/prequal/match', params: {}, query: {} }, brand: {}, conditions, flags: {} });
    await runActions(view, { ...matchCtx, row: { lenderCode: 'acme', lenderName: 'Acme Patient Credit' } }, runtime);
    expect(went).toEqual(['route /app/acme/offers/7']);

    const offers = read<{ columns: Array<{ buttons?: Array<{ actions: Action[] }> }> }>('pages/lender-offers-table.json');
    const choose = offers.columns.find((c) => c.buttons)!.buttons![0]!.actions;
    const chosen = recorder(table);
    await runActions(choose, { ...flowContext(acme, 'offers'), row: { id: 31 }, filter: {} }, chosen.runtime);
    expect(chosen.went).toEqual(['route /app/acme/offers/select?id=7&offer=31']);

    const target = resolveTarget({ route: { cat: [{ var: 'route.flow.code' }, '-offers-id'] }, params: { id: 7 } }, flowContext(acme, 'select'), table);
    expect(target).toMatchObject({ kind: 'route', path: '/app/acme/offers/7' });
    expect(evaluate({ var: 'flow.name' }, flowContext(acme, 'sign'))).toBe('Acme Patient Credit');
  });
});
