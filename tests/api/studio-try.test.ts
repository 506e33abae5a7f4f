import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { OFFICE_ADMIN, PLATFORM, PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { json } from './journey-fixtures.ts';

/**
 * The studio's 'Try it' (issue 38 item 5), as the product owner: a lender file, live or drafted, pre-qualifies a sample
 * applicant and the answer is what the portal would record; a draft that fails the checks is refused; nothing is
 * written. (The API suite plays every lender in process: the same call over HTTP, with a mapping's problem at its
 * place, is in tests/lender-service/studio-try.test.ts.)
 */

let h: Harness;
type Result = { decision: string; offers: { productName: string; amount: number; apr: number }[]; adverseActionReason: string | null; problems: unknown[]; sentTo: string | null; approvedAmount: number | null };
const tryIt = (body: Record<string, unknown>, as = PRODUCT_OWNER) => h.request(as, 'POST', '/api/Studio/TryLender', { files: {}, code: 'ally', sample: 'Approve', amount: 4500, ...body });
const counts = async () => (await h.database.db.execute<{ apps: number; logs: number }>(sql`select (select count(*)::int from applications) as apps, (select count(*)::int from app_logs) as logs`)).rows[0]!;

beforeAll(async () => {
  h = await harness();
});

describe('Studio_TryLender', () => {
  it("answers a live lender's offers for a patient it approves, and its reason for one it declines, writing nothing", async () => {
    const before = await counts();
    const approved = await tryIt({});
    expect(approved.statusCode, approved.body).toBe(200);
    const result = json<Result>(approved);
    expect(result).toMatchObject({ decision: 'Approved', problems: [], sentTo: null });
    expect(result.offers.length).toBeGreaterThan(0);
    expect(result.offers.every((o) => o.amount === 4500 && o.apr >= 0)).toBe(true);

    const declined = json<Result>(await tryIt({ sample: 'Decline' }));
    expect(declined).toMatchObject({ decision: 'Declined', offers: [] });
    expect(declined.adverseActionReason).toBeTruthy();
    expect(json<Result>(await tryIt({ sample: 'Counter', amount: 4000 })).approvedAmount).toBe(1500);
    expect(await counts()).toEqual(before);
  });

  it('tries the drafted file, not the live one: a product the draft adds is offered', async () => {
    const ally = (await import('../../screens/lenders/ally.json', { with: { type: 'json' } })).default as { sandbox: { products: { code: string; name: string }[] } };
    const draft = structuredClone(ally) as typeof ally & Record<string, unknown>;
    draft.sandbox.products = draft.sandbox.products.map((p, i) => (i === 0 ? { ...p, name: 'Drafted Plan' } : p));
    const result = json<Result>(await tryIt({ files: { 'lenders/ally.json': draft } }));
    expect(result.decision).toBe('Approved');
    expect(result.offers.some((o) => o.productName === 'Drafted Plan')).toBe(true);
  });

  it('refuses a draft that fails the checks, a lender that does not exist, and every role but the product owner', async () => {
    const broken = await tryIt({ files: { 'lenders/ally.json': { code: 'ally' } } });
    expect(broken.statusCode).toBe(409);
    expect(json(broken)).toMatchObject({ detail: 'Fix the problems of the drafts first: a lender is tried as its file would be published.' });
    const unknown = await tryIt({ code: 'nobody' });
    expect(unknown.statusCode).toBe(404);
    for (const as of [OFFICE_ADMIN, PLATFORM]) expect((await tryIt({}, as)).statusCode).toBe(403);
    expect((await tryIt({ sample: 'Maybe' })).statusCode).toBe(400);
  });
});
