import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applicationLenders, appLogs, files, outbox } from '../../server/db/schema.ts';
import { NOTICE_AFTER_DAYS, sendDueNotices } from '../../server/domain/notices/due.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { harness, type Harness } from '../support/harness.ts';
import { freshEmail, journeyOffice, json, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

const LENDER_NAMES = ['Ally Lending', 'GreenSky', 'LendingPoint', 'Lending USA', 'PowerPay', 'Upgrade'];

/** The consolidated adverse-action notice (issue 19, decision 0214). */
describe('the adverse-action notice', () => {
  let h: Harness;
  let office: JourneyOffice;
  const db = () => h.database.db;
  const submit = (form: Record<string, unknown>) => h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as: office.admin });
  const noticesOf = (appId: number) => db().select().from(files).where(and(eq(files.appId, appId), eq(files.kind, 'AdverseActionNotice')));
  const messagesTo = (to: string) => db().select().from(outbox).where(eq(outbox.recipient, to));

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  it('names every declining lender with its reason, the credit report used and the ECOA rights, in one e-mail kept with the application', async () => {
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { lastName: 'Decline', email }))).id;
    const sent = await messagesTo(email);
    expect(sent).toHaveLength(1);
    const [message] = sent;
    expect(message!.subject).toMatch(/^Your financing application at Journey Dental \w+: the lenders' decisions$/);
    // Each creditor with its address from its lender file (Reg B §1002.9(a)(2)) and its phone.
    const addressOf = (name: string) => lenderCatalogue(h.settings).descriptors.find((lender) => lender.name === name)!.address;
    for (const name of LENDER_NAMES) expect(message!.body).toContain(`- ${name}, ${addressOf(name)}, (800) `);
    expect(message!.body).toContain("Principal reason: Sandbox: the last name 'Decline' is declined by every lender.");
    expect(message!.body).toContain('Sandbox Credit Reporting (simulated), 100 Example Way, Austin, TX 78701, (800) 555-0190');
    // The score each lender used, with its scale, date and key factors (FCRA §615(a)(1)(B), decision 0221).
    const today = new Date().toISOString().slice(0, 10).split('-');
    for (const name of LENDER_NAMES) {
      expect(message!.body).toContain(
        `Your credit score. ${name} used a credit score from Sandbox Credit Reporting (simulated) in its decision: 562, on a scale from 300 to 850 (Sandbox Score (simulated, FICO-like)), created on ${today[1]}/${today[2]}/${today[0]}. Key factors that adversely affected it: Too many recent inquiries for credit; Proportion of balances to credit limits is too high;`,
      );
    }
    expect(message!.body).toContain('Equal Credit Opportunity Act');
    expect(message!.body).toContain('Consumer Financial Protection Bureau');
    // Kept with the application, as sent, and shown to the borrower and the office.
    const kept = await noticesOf(appId);
    expect(kept).toHaveLength(1);
    const text = Buffer.from(kept[0]!.bytes).toString('utf8');
    expect(text).toBe(`${message!.subject}\n\n${message!.body}`);
    const asBorrower = json<{ adverseActionNotice: string | null }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, borrowerOf: appId }));
    const asOffice = json<{ adverseActionNotice: string | null }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.admin }));
    expect(asBorrower.adverseActionNotice).toBe(text);
    expect(asOffice.adverseActionNotice).toBe(text);
    const logs = await db().select().from(appLogs).where(eq(appLogs.appId, appId));
    expect(logs.map((l) => l.message)).toContain('Adverse-action notice for 6 lenders sent by e-mail');
  });

  it('texts a borrower without an e-mail address where the notice is, and keeps it for a paper copy', async () => {
    const form = prequalForm(office.officeId, { lastName: 'Decline' });
    delete form.email;
    const appId = json<{ id: number }>(await submit(form)).id;
    const texts = await messagesTo(String(form.mobilePhone));
    expect(texts.filter((t) => t.body.includes('none of the 6 lenders could approve'))).toHaveLength(1);
    expect(await noticesOf(appId)).toHaveLength(1);
  });

  it('sends none when a lender made an offer', async () => {
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { email }))).id;
    expect(await noticesOf(appId)).toEqual([]);
    expect(await messagesTo(email)).toEqual([]);
  });

  it(`names the lenders that declined when no offer of the others was chosen ${NOTICE_AFTER_DAYS} days on, once (decision 0222)`, async () => {
    // Income 22,000: GreenSky (below 25,000) declines, the others make offers.
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { email, annualIncome: 22000 }))).id;
    const declined = await db().select().from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.status, 'Declined')));
    expect(declined).toHaveLength(1);
    const catalogue = lenderCatalogue(h.settings);
    const later = (days: number) => new Date(declined[0]!.respondedAt!.getTime() + days * 86_400_000);
    // (The demo data's expired applications are swept too: the counts are this application's.)
    await sendDueNotices(db(), catalogue, later(NOTICE_AFTER_DAYS - 1));
    expect(await messagesTo(email)).toEqual([]);
    expect(await noticesOf(appId)).toEqual([]);
    // Two servers sweeping at once send it once.
    await Promise.all([sendDueNotices(db(), catalogue, later(NOTICE_AFTER_DAYS + 1)), sendDueNotices(db(), catalogue, later(NOTICE_AFTER_DAYS + 1))]);
    const sent = await messagesTo(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain(`- GreenSky, ${lenderCatalogue(h.settings).get('gsky')!.descriptor.address}, (800) 555-0104. Principal reason: Insufficient credit history`);
    for (const name of LENDER_NAMES.filter((n) => n !== 'GreenSky')) expect(sent[0]!.body).not.toContain(`- ${name},`);
    expect(await noticesOf(appId)).toHaveLength(1);
    await sendDueNotices(db(), catalogue, later(NOTICE_AFTER_DAYS + 2));
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it('sends none when the borrower chose an offer', async () => {
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { email, annualIncome: 22000 }))).id;
    const offers = json<{ id: number; lenderCode: string }[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${appId}`, borrowerOf: appId }));
    const chosen = await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: offers.find((o) => o.lenderCode === 'ally')!.id, agreeToTerms: true }, borrowerOf: appId });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await sendDueNotices(db(), lenderCatalogue(h.settings), new Date(Date.now() + 40 * 86_400_000));
    expect(await messagesTo(email)).toEqual([]);
    expect(await noticesOf(appId)).toEqual([]);
  });
});
