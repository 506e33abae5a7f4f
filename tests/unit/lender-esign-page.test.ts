/**
 * The lender's e-sign return page (screens/pages/lenders-esign-id.json, decisions 0030 and 0165) as the engine runs it:
 * one Office_UpdateLenderESign call with the address's values as the body wants them, then the outcome in the address
 * (without the one-time token) so that a reload shows it again without a second call.
 */
import { describe, expect, it } from 'vitest';
import type { Action, RoutesDescriptor } from '../../codegen/generated/descriptors.ts';
import { ApiError } from '../../src/app/api/problem.ts';
import { runActions } from '../../src/engine/actions.ts';
import { buildContext } from '../../src/engine/context.ts';
import { condition, text } from '../../core/expressions.ts';
import { buildRouteTable } from '../../src/engine/routing.ts';
import type { CallInput } from '../../src/engine/services.ts';
import { fakeRuntime } from '../support/action-runtime.ts';
import { screensFile } from '../../core/descriptors/read.ts';

const read = <T>(relative: string): T => screensFile<T>(relative);
const page = read<{ onLoad: Action[]; sections: { text: string; visible: unknown }[] }>('pages/lenders-esign-id.json');
const table = buildRouteTable(read<RoutesDescriptor>('routes.json'), []);
const TOKEN = `les1.1900000000.1700000000000000.${'a'.repeat(43)}`;

const contextAt = (query: Record<string, string>) =>
  buildContext({ session: {}, route: { name: 'lenders-esign-id', path: '/lenders/esign/3', params: { id: '3' }, query }, brand: {}, conditions: {}, flags: {} });

/** Runs the page's onLoad against a server that answers `answer`; records the calls, where it went and the toasts. */
async function load(query: Record<string, string>, answer: () => unknown) {
  const calls: Array<[string, CallInput]> = [];
  const went: string[] = [];
  const toasts: unknown[] = [];
  const runtime = fakeRuntime(table, {
    currentPath: '/lenders/esign/3',
    navigate: (path: string, replace?: boolean) => void went.push(`${replace ? 'replace' : 'push'} ${path}`),
    call: async (id: string, input: CallInput) => (calls.push([id, input]), answer()),
    toast: { success: (m: string) => void toasts.push(m), info: (m: string) => void toasts.push(m), error: (e: unknown) => void toasts.push(e) },
  });
  await runActions(page.onLoad, contextAt(query), runtime);
  return { calls, went, toasts };
}

const shown = (query: Record<string, string>) => page.sections.filter((s) => condition(s.visible, contextAt(query), true)).map((s) => text(s.text, contextAt(query)));
const link = { officeId: '100', token: TOKEN, event: 'Completed' };

describe("the lender's e-sign return page", () => {
  it('records the outcome once, with integers where the body wants them, and leaves the token out of the address', async () => {
    const { calls, went, toasts } = await load(link, () => ({ success: true }));
    expect(calls).toEqual([['Office_UpdateLenderESign', { body: { officeId: 100, lenderId: 3, token: TOKEN, event: 'Completed' } }]]);
    expect(went).toEqual(['replace /lenders/esign/3?outcome=recorded&event=Completed']);
    expect(toasts).toEqual([]);
    expect(shown({ outcome: 'recorded', event: 'Completed' })).toEqual([
      "Thank you. The lender agreement is signed and your office's file was updated. You can close this window.",
    ]);
    expect(shown({ outcome: 'recorded', event: 'Declined' })[0]).toContain('was not signed');
  });

  it('says in words that a refused link is not valid, without a toast', async () => {
    const { went, toasts } = await load(link, () => {
      throw new ApiError(401, { status: 401, detail: 'The e-sign link is not valid, has expired or was already used.' }, 'Office_UpdateLenderESign');
    });
    expect(went).toEqual(['replace /lenders/esign/3?outcome=refused']);
    expect(toasts).toEqual([]);
    expect(shown({ outcome: 'refused' })).toEqual([
      'This link is not valid, has expired or was already used. If you signed the lender agreement, My Lenders shows where your office stands with the lender.',
    ]);
  });

  it('keeps the link when the server failed, so that a reload tries again', async () => {
    const { went } = await load(link, () => {
      throw new ApiError(503, undefined, 'Office_UpdateLenderESign');
    });
    expect(went).toEqual([`replace /lenders/esign/3?outcome=failed&officeId=100&token=${TOKEN}&event=Completed`]);
    expect((await load({ ...link, outcome: 'failed' }, () => ({ success: true }))).calls).toHaveLength(1);
  });

  it('calls nothing when reloaded with its outcome', async () => {
    for (const outcome of ['recorded', 'refused']) {
      const { calls, went } = await load({ outcome, event: 'Completed' }, () => ({ success: true }));
      expect([calls, went]).toEqual([[], []]);
    }
  });
});
