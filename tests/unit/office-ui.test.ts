/**
 * The office and platform-admin screens after the signature (issue 6): the descriptors say what spec §2–§5 and
 * decision 0006 ask (status chips, the row actions of the display flags, all stages in the search, the finalize and
 * refund rules with the spec's words, the funding selection), and the small pieces of code they rely on work:
 * multipart bodies, the file check, `{value|format}` texts, 400 answers on form fields, settled preloads.
 */
import { rolePermissions } from '../../core/permissions.ts';
import { labelNamesIn, registerLabels } from '../../core/labels.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { condition, evaluate, fillTemplate, text, type Context } from '../../core/expressions.ts';
import { formatBytes, formatField } from '../../core/formats.ts';
import { fieldErrorsOf } from '../../src/engine/forms/model.ts';
import { loadOnce, tracked } from '../../src/engine/preload.ts';
import { fileFromDataUrl, isFileValue, toMultipart } from '../../src/app/api/multipart.ts';
import { acceptLabel, accepts, fileProblem } from '../../src/widgets/file-check.ts';
import { labels } from '../../codegen/generated/labels.ts';
import { CHIPS, NO_OFFERS } from '../../src/widgets/chip-styles.ts';
import { screensFile } from '../../core/descriptors/read.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { evaluateConditions } from '../../src/engine/context.ts';

type Json = Record<string, unknown>;
const read = <T = Json>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const page = (name: string) => screensFile<Json>(`pages/${name}.json`);
const dialog = (name: string) => screensFile<Json>(`dialogs/${name}.json`);
const messages = read<{ messages: Record<string, string> }>('schemas/messages.json').messages;
const STAGES = read<{ enum: string[] }>('schemas/enums/stage.json').enum;
const FLAGS = Object.keys(read<{ properties: Json }>('schemas/entities/app-row.json').properties).filter((k) => /^show\w+Button$/.test(k));

interface Button {
  id?: string;
  label: unknown;
  visible?: unknown;
  disabled?: unknown;
  actions?: Array<Json & { type: string }>;
}
interface Column {
  id: string;
  format?: string;
  value?: unknown;
  buttons?: Button[];
}

const columns = (doc: Json) => doc.columns as Column[];
const rowButtons = (doc: Json) => columns(doc).flatMap((c) => c.buttons ?? []);
const cond = (extra: Json = {}): Context => ({ cond: { internalAdmin: false, dfiAdmin: false, tpa: false, ...extra } });

describe('application lists (spec §2, §4; decision 0006)', () => {
  const lists = ['home', 'search-id', 'logs-inactive', 'admin-apps', 'admin-apps-inactive', 'admin-apps-office'];

  it.each(lists)('%s shows the status chip of the row and a button for every display flag', (name) => {
    const doc = page(name);
    const chip = columns(doc).find((c) => c.format === 'chip');
    expect(chip, 'a chip column').toBeDefined();
    expect(evaluate(chip!.value ?? { var: `row.${chip!.id}` }, { row: { statusChip: 'Funded', statusText: 'x' } })).toBe('Funded');
    const buttons = rowButtons(doc);
    for (const flag of FLAGS) {
      // Each flag shows its button, and hides it when false (whoever the user is).
      const shown = buttons.filter((b) => JSON.stringify(b.visible ?? null).includes(`row.${flag}`));
      expect(shown.length, `${name}: a button for ${flag}`).toBeGreaterThan(0);
      for (const b of shown) expect(condition(b.visible, { ...cond(), session: { role: 'admin' }, row: { [flag]: false } }, true), `${name}: ${b.id}`).toBe(false);
    }
    // The detail opens from every row.
    expect(buttons.find((b) => b.id === 'view')?.actions?.[0]).toMatchObject({ type: 'dialog', dialog: 'app-detail' });
  });

  it('has the filter button on every list, with dates and the applicant name or id', () => {
    for (const name of ['home', 'logs-inactive', 'logs-funded', 'logs-refunds', 'logs-sendapp', 'admin-apps', 'admin-apps-inactive', 'admin-apps-funded', 'admin-apps-funding', 'admin-apps-refunds']) {
      const ids = ((page(name).filters ?? []) as Array<{ id: string }>).map((f) => f.id);
      expect(ids, name).toEqual(expect.arrayContaining(['fromDate', 'toDate', 'search']));
    }
  });

  it('finalize and refunds follow the permissions held: by the role\'s template, a grant or a withdrawal (x-access of the contract)', () => {
    const buttons = rowButtons(page('home'));
    const finalize = buttons.find((b) => b.id === 'finalize')!;
    const row = { showFinalizeButton: true, showRefundButton: true };
    // What a role's template gives (decision 0279), as the session holds it.
    const as = (role: string) => ({ role, permissions: rolePermissions(role) });
    expect(condition(finalize.visible, { ...cond({ tpa: true }), session: as('tpa'), row }, true)).toBe(false);
    expect(condition(finalize.visible, { ...cond(), session: as('sales'), row }, true)).toBe(true);
    const refund = rowButtons(page('logs-funded')).find((b) => b.id === 'refund')!;
    const funded = { stage: 'Funded', fundedAmount: 100, totalRefundedAmount: 40 };
    expect(condition(refund.visible, { ...cond(), session: as('support'), row: funded }, true)).toBe(true);
    expect(condition(refund.visible, { ...cond(), session: as('sales'), row: funded }, true)).toBe(false);
    expect(condition(refund.visible, { ...cond({ internalAdmin: true }), session: as('sales'), row: funded }, true)).toBe(true);
    // A support member whose 'request refunds' was withdrawn, and a sales member granted it.
    expect(condition(refund.visible, { ...cond(), session: { role: 'support', permissions: ['startApplications'] }, row: funded }, true)).toBe(false);
    expect(condition(refund.visible, { ...cond(), session: { role: 'sales', permissions: ['requestRefunds'] }, row: funded }, true)).toBe(true);
    // Nothing left to refund: no button.
    expect(condition(refund.visible, { ...cond(), session: as('admin'), row: { ...funded, totalRefundedAmount: 100 } }, true)).toBe(false);
  });

  it("the funding tracker says where deposits go, or that the bank account is not verified with a way to verify it (decision 0278)", () => {
    const summary = page('funding-summary') as { sections: Array<{ summary: Json; toolbar: Array<{ visible: Json; actions: Array<{ to: Json }> }> }> };
    // The engine loads the words of every enumeration a screen names (labelNamesIn) before it shows it.
    expect(labelNamesIn(summary).has('label:AchVerifyStatus')).toBe(true);
    registerLabels('label:AchVerifyStatus', labels.AchVerifyStatus!);
    const where = summary.sections[0]!;
    const steps = [{ netAmount: 3840, late: 0 }, { netAmount: 1200, late: 0 }];
    const ctx = (bank: Json | null, internalAdmin = false): Context => ({ ...cond({ internalAdmin }), data: { bank, steps, today: '11/30/2026' } } as unknown as Context);
    const verified = ctx({ status: 'Verified', accountLast4: '6789', verifiedDate: '11/01/2026' });
    expect(text(where.summary as never, verified)).toBe('Deposits go to your verified bank account ending 6789. $1,200.00 is on its way to you and $3,840.00 is requested from lenders.');
    const verify = where.toolbar[0]!;
    expect(condition(verify.visible as never, verified, true)).toBe(false);
    const pending = ctx({ status: 'Pending', accountLast4: '6789', verifiedDate: null });
    expect(text(where.summary as never, pending)).toBe('Your bank account is not verified (Waiting for the two deposit amounts): no deposit can be made until it is. Verify it on the Bank Account page.');
    expect(condition(verify.visible as never, pending, true)).toBe(true);
    expect(verify.actions[0]!.to).toEqual({ route: 'settings-bank' });
    // A platform admin reads it across offices, without the office's button.
    expect(text(where.summary as never, ctx(null, true))).toBe('Across every office on 11/30/2026: $1,200.00 on its way to the offices and $3,840.00 requested from lenders; none is late.');
    expect(condition(verify.visible as never, ctx({ status: 'Pending', accountLast4: null, verifiedDate: null }, true), true)).toBe(false);
  });

  it('/search/{id} asks for every stage (decision 0080), and so does the admin list when it searches', () => {
    const search = page('search-id') as { source: { body: Json } };
    expect(search.source.body.stages).toEqual(STAGES);
    const admin = page('admin-apps') as { source: { body: { stages: unknown } } };
    expect(evaluate(admin.source.body.stages, { filter: {}, route: { query: { search: 'smith' } } })).toEqual(STAGES);
    expect(evaluate(admin.source.body.stages, { filter: {}, route: { query: {} } })).toBeNull();
    expect(evaluate(admin.source.body.stages, { filter: { stage: 'Review' }, route: { query: {} } })).toEqual(['Review']);
  });

  it('shows stages in words, from the enumeration (decision 0147)', () => {
    const summary = page('app-detail-summary');
    const stage = ((summary.sections as Array<{ fields: Array<{ label: string; value: unknown; format?: string }> }>)[0]!.fields.find((f) => f.label === 'Stage'))!;
    expect(stage.format).toBe('label:Stage');
    expect(labels.Stage!.SubmittedForFunding).toBe('Submitted for funding');
  });
});

describe('finalize and refunds (spec §5)', () => {
  interface Rule {
    field: string;
    invalid: unknown;
    message: string;
  }
  const rule = (name: string, index = 0) => (dialog(name).rules as Rule[])[index]!;

  it('refuses a loan amount over the approved amount, in the spec words', () => {
    const r = rule('app-finalize');
    expect(r.field).toBe('loanAmount');
    expect(messages[r.message]).toBe('Loan amount cannot exceed the approved amount.');
    const check = (loanAmount: number, approvedAmount: number) => condition(r.invalid, { form: { loanAmount }, dialog: { approvedAmount } }, false);
    expect(check(3000, 3000)).toBe(false);
    expect(check(2999.99, 3000)).toBe(false);
    expect(check(3000.01, 3000)).toBe(true);
  });

  it('refuses a refund over the original amount minus what was refunded, in the spec words, to the cent', () => {
    const r = rule('app-refund');
    expect(r.field).toBe('amount');
    expect(messages[r.message]).toBe('Refund amount cannot exceed the original loan amount.');
    const check = (amount: number, fundedAmount: number, totalRefundedAmount: number) =>
      condition(r.invalid, { form: { amount }, dialog: { fundedAmount, totalRefundedAmount } }, false);
    expect(check(1134.31, 1234.56, 100.25)).toBe(false);
    expect(check(1134.32, 1234.56, 100.25)).toBe(true);
    // Binary floating point: 0.3 − 0.1 is 0.19999999999999998, yet a refund of 0.20 is the whole rest.
    expect(check(0.2, 0.3, 0.1)).toBe(false);
    expect(check(0.21, 0.3, 0.1)).toBe(true);
    expect(check(1234.56, 1234.56, 0)).toBe(false);
  });

  it('refuses a loan amount over what the borrower signed for (issue 19, decision 0210)', () => {
    const r = rule('app-finalize', 1);
    expect(r.field).toBe('loanAmount');
    expect(messages[r.message]).toBe('Loan amount cannot exceed the amount the borrower signed for. A larger loan needs a new agreement.');
    const check = (loanAmount: number, amount: number) => condition(r.invalid, { form: { loanAmount }, dialog: { amount, approvedAmount: 18_000 } }, false);
    expect(check(4500, 4500)).toBe(false);
    expect(check(4499.99, 4500)).toBe(false);
    expect(check(4500.01, 4500)).toBe(true);
    expect(check(18_000, 4500)).toBe(true);
  });

  it('pre-fills the loan amount with the amount the borrower signed for', () => {
    const initial = (dialog('app-finalize').initial as { loanAmount: unknown }).loanAmount;
    expect(evaluate(initial, { dialog: { amount: 1600, approvedAmount: 3000 } })).toBe(1600);
  });

  it('moves a refund on: Submitted → Processing → Completed, for df.admin only', () => {
    const update = rowButtons(page('admin-apps-refunds')).find((b) => b.id === 'update-refund')!;
    for (const [status, shown] of [['Submitted', true], ['Processing', true], ['Completed', false], ['Cancelled', false]] as const) {
      expect(condition(update.visible, { ...cond({ internalAdmin: true }), row: { status } }, true), status).toBe(shown);
    }
    expect(condition(update.visible, { ...cond({ internalAdmin: true, dfiAdmin: true }), row: { status: 'Submitted' } }, true)).toBe(false);
    const next = (dialog('admin-refund-update').initial as { status: unknown }).status;
    expect(evaluate(next, { dialog: { status: 'Submitted' } })).toBe('Processing');
    expect(evaluate(next, { dialog: { status: 'Processing' } })).toBe('Completed');
  });
});

describe('funding (spec §6: df.admin only)', () => {
  it('selects applications on Office Funding and marks them funded with the file as the answer', () => {
    const funding = page('admin-apps-funding') as { select: Json; toolbar: Button[] };
    expect(funding.select).toBeDefined();
    const mark = funding.toolbar.find((b) => b.id === 'mark-funded')!;
    expect(condition(mark.disabled, { selection: [] }, false)).toBe(true);
    expect(condition(mark.disabled, { selection: [7] }, false)).toBe(false);
    expect(mark.actions![0]).toMatchObject({ type: 'dialog', dialog: 'admin-mark-funded' });
    // The dialog is a form: the selected ids and the Funding Date (today unless changed); its answer downloads.
    const confirm = dialog('admin-mark-funded');
    expect(confirm).toMatchObject({ kind: 'form', schema: 'MarkFunded', values: { appIds: { var: 'dialog.appIds' } }, initial: { fundedDate: { var: 'today' } } });
    expect(confirm.submit).toMatchObject({ operation: 'AdminApps_MarkAppsFunded', download: true });
  });

  it('is in the platform admin menu except for the DFI admin; the office menu lists the four lists', () => {
    const menus = screensFile<{ menus: Array<{ id: string; items: Array<{ id: string; to: { route: string }; visible?: unknown }> }> }>('menus.json').menus;
    const admin = menus.find((m) => m.id === 'platform-admin')!;
    const funding = admin.items.find((i) => i.to.route === 'admin-apps-funding')!;
    expect(condition(funding.visible, cond({ dfiAdmin: false }), true)).toBe(true);
    expect(condition(funding.visible, cond({ dfiAdmin: true }), true)).toBe(false);
    const office = menus.find((m) => m.id === 'office')!;
    expect(office.items.map((i) => i.to.route)).toEqual(expect.arrayContaining(['home', 'logs-inactive', 'logs-funded', 'logs-refunds', 'logs-sendapp']));
  });

  it("offers My Lenders where Home says to apply to lenders there: to the admin of an office that awaits approval (issue 37)", () => {
    const conditions = screensFile<{ conditions: Record<string, unknown> }>('conditions.json').conditions;
    const pending = { session: { authenticated: true, enrolled: true, approved: false, role: 'admin' } };
    const office = screensFile<{ menus: Array<{ id: string; items: Array<{ id?: string; label?: string; visible?: unknown }> }> }>('menus.json').menus.find((m) => m.id === 'office')!;
    const shown = office.items.filter((item) => condition(item.visible, { ...pending, cond: evaluateConditions(conditions, pending) }, true)).map((item) => item.label);
    const reviewed = (page('office-status').sections as Array<{ title: string; text: string }>).find((s) => s.title === 'Your enrollment is being reviewed')!;
    expect(reviewed.text).toContain('under My Lenders');
    expect(shown).toContain('My Lenders');
  });

  it("promises an office's admins the reason on their Home page only for the statuses whose Home section shows it (issue 37)", () => {
    // Every status a screen opens the status dialog with, found in the descriptors.
    const opened = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const action = node as { type?: string; dialog?: string; props?: { status?: unknown } };
      if (action.type === 'dialog' && action.dialog === 'admin-office-status' && typeof action.props?.status === 'string') opened.add(action.props.status);
      Object.values(node).forEach(walk);
    };
    for (const file of listDescriptorFiles()) walk(JSON.parse(file.text));
    expect(opened.size).toBeGreaterThanOrEqual(4);
    const sections = page('office-status').sections as Array<{ visible?: unknown; text: string }>;
    for (const status of opened) {
      const intro = text(dialog('admin-office-status').intro, { dialog: { status, officeName: 'Hill Country Smiles' } });
      const shown = sections.some((section) => section.text.includes('{data.statusReason}') && condition(section.visible, { data: { enrollmentStatus: status } }, true));
      expect(intro.includes('Home page'), `${status}: ${intro}`).toBe(shown);
    }
  });

  it('shows the audit logs on the detail to platform admins only (the contract has no log call for offices)', () => {
    const parts = dialog('app-detail').parts as Array<{ screen: string; visible?: unknown }>;
    const logs = parts.find((p) => p.screen === 'app-detail-logs')!;
    expect(condition(logs.visible, cond({ internalAdmin: true }), true)).toBe(true);
    expect(condition(logs.visible, cond({ internalAdmin: false }), true)).toBe(false);
  });
});

describe('the status chip', () => {
  it("shows each chip in the words of its enumeration (the chip styles keep their own copy for the lists' speed)", () => {
    for (const [chip, words] of Object.entries(labels.StatusChip!)) expect((CHIPS[chip] ?? NO_OFFERS).label, chip).toBe(words);
  });
});

describe('texts with formats', () => {
  it('fill {path|format} with the formats of spec §9', () => {
    const ctx = { dialog: { approved: 3000, refunded: 0, apr: 9.99, day: '2031-03-04', size: 12_600 } };
    expect(fillTemplate('approved for {dialog.approved|currency}, so far {dialog.refunded|currency}', ctx)).toBe('approved for $3,000.00, so far $0.00');
    expect(fillTemplate('{dialog.apr|apr} on {dialog.day|date}, {dialog.size|bytes}', ctx)).toBe('9.990% on 03/04/2031, 12.3 KB');
    expect(text('{dialog.missing|currency} and {dialog.missing}', ctx)).toBe('$0.00 and ');
  });

  it('show file sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(formatBytes(null)).toBe('');
  });
});

describe('forms', () => {
  it('put a 400 answer’s field errors on the fields of the form, and nothing else', () => {
    const error = { status: 400, problem: { errors: { amount: ['Refund amount cannot exceed the original loan amount.'], other: ['x'] } } };
    expect(fieldErrorsOf(error, ['appId', 'amount', 'reason'])).toEqual({ amount: ['Refund amount cannot exceed the original loan amount.'] });
    expect(fieldErrorsOf({ ...error, status: 409 }, ['amount'])).toBeUndefined();
    expect(fieldErrorsOf(new Error('network'), ['amount'])).toBeUndefined();
  });
});

describe('file uploads (App_UploadFile: multipart with file and model)', () => {
  const pdf = `data:application/pdf;name=${encodeURIComponent('plan è.pdf')};base64,${Buffer.from('%PDF-1.4 hello').toString('base64')}`;

  it('turns the file widget’s data URL back into a named file', async () => {
    expect(isFileValue(pdf)).toBe(true);
    expect(isFileValue('plain text')).toBe(false);
    const file = fileFromDataUrl(pdf)!;
    expect(file.name).toBe('plan è.pdf');
    expect(file.blob.type).toBe('application/pdf');
    expect(await file.blob.text()).toBe('%PDF-1.4 hello');
  });

  it('sends files as file parts and every other value in the JSON model part', async () => {
    const form = toMultipart({ appId: 7, file: pdf, fileType: 'TreatmentPlan', description: '', note: null });
    const file = form.get('file') as File;
    expect(file.name).toBe('plan è.pdf');
    expect(await file.text()).toBe('%PDF-1.4 hello');
    expect(JSON.parse(String(form.get('model')))).toEqual({ appId: 7, fileType: 'TreatmentPlan' });
    expect([...form.keys()].sort()).toEqual(['file', 'model']);
  });

  it('repeats a part for a list of files and keeps a given model as the base', () => {
    const form = toMultipart({ files: [pdf, pdf], model: { officeId: 3 }, kind: 'W9' });
    expect(form.getAll('files')).toHaveLength(2);
    expect(JSON.parse(String(form.get('model')))).toEqual({ officeId: 3, kind: 'W9' });
  });

  it('refuses in the browser what the server would refuse, in its words', () => {
    const accept = '.pdf,.png,.jpg,.jpeg,.heic';
    expect(acceptLabel(accept)).toBe('PDF, PNG, JPEG or HEIC');
    expect(accepts(accept, 'scan.JPG', 'image/jpeg')).toBe(true);
    expect(accepts('image/*', 'x.heic', 'image/heic')).toBe(true);
    expect(fileProblem({ name: 'notes.txt', type: 'text/plain', size: 5 }, { accept })).toBe('Only PDF, PNG, JPEG or HEIC files are accepted.');
    expect(fileProblem({ name: 'big.pdf', type: 'application/pdf', size: 11 * 1_048_576 }, { accept, maxBytes: 10 * 1_048_576 })).toBe('The file is larger than 10 MB.');
    expect(fileProblem({ name: 'empty.pdf', type: 'application/pdf', size: 0 }, { accept })).toBe('The file is empty.');
    expect(fileProblem({ name: 'plan.pdf', type: 'application/pdf', size: 10 }, { accept, maxBytes: 100 })).toBeUndefined();
    const upload = dialog('app-file-upload') as { fields: { file: { options: { accept: string; maxBytes: number } } } };
    expect(acceptLabel(upload.fields.file.options.accept)).toBe('PDF, PNG, JPEG or HEIC');
  });
});

describe('preloading (a page appears in one commit)', () => {
  it('marks a settled promise the way React’s use() reads it at once', async () => {
    const ok = tracked(Promise.resolve(5)) as Promise<number> & { status?: string; value?: number };
    expect(ok.status).toBe('pending');
    await ok;
    expect(ok).toMatchObject({ status: 'fulfilled', value: 5 });
    const failed = tracked(Promise.reject(new Error('x'))) as Promise<never> & { status?: string };
    await failed.catch(() => undefined);
    expect(failed.status).toBe('rejected');
  });

  it('loads once per key and tries again after a failure', async () => {
    const cache = new Map<string, Promise<number>>();
    let calls = 0;
    const load = () => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(calls));
    await expect(loadOnce(cache, 'k', load)).rejects.toThrow('offline');
    await new Promise((r) => setTimeout(r, 0));
    expect(await loadOnce(cache, 'k', load)).toBe(2);
    expect(await loadOnce(cache, 'k', load)).toBe(2);
    expect(calls).toBe(2);
  });
});

describe("what an office's pages show (issue 37, item 7)", () => {
  type Field = { label: string; value: unknown; format?: string };
  const fieldsOf = (screen: Json) => (screen.sections as Array<{ fields?: Field[] }>).flatMap((s) => s.fields ?? []);
  const field = (screen: Json, label: string) => fieldsOf(screen).find((f) => f.label === label)!;
  const shown = (f: { value?: unknown; format?: string }, ctx: Context) => formatField(f.format, evaluate(f.value, ctx));
  const ADDRESS = { streetAddress: '100 Congress Ave', suiteNo: 'Suite 200', city: 'Austin', state: 'TX', zipCode: '78701' };

  it('the public landing page gives the full address: suite and ZIP code too', () => {
    expect(shown(field(page('landing-code-office'), 'Address'), { data: { office: { address: ADDRESS } } })).toBe('100 Congress Ave, Suite 200, Austin, TX 78701');
    expect(shown(field(page('landing-code-office'), 'Address'), { data: { office: { address: { ...ADDRESS, suiteNo: null } } } })).toBe('100 Congress Ave, Austin, TX 78701');
    expect(shown(field(page('admin-office-profile'), 'Address'), { data: { address: ADDRESS } })).toBe('100 Congress Ave, Suite 200, Austin, TX 78701');
  });

  it('shows the EIN as 12-3456789 however it was typed', () => {
    for (const screen of [page('admin-office-profile'), page('enroll-review')]) {
      expect(shown(field(screen, 'Federal tax id (EIN)'), { data: { taxId: '123456789' } })).toBe('12-3456789');
      expect(shown(field(screen, 'Federal tax id (EIN)'), { data: { taxId: '12-3456789' } })).toBe('12-3456789');
    }
  });

  it("leaves an owner's income blank when none was given, rather than $0.00", () => {
    const owners = page('admin-offices-owners');
    const item = { annualIncome: null, netWorth: null };
    expect(shown(field(owners, 'Annual income'), { item })).toBe('');
    expect(shown(field(owners, 'Net worth'), { item })).toBe('');
    expect(shown(field(owners, 'Annual income'), { item: { annualIncome: 0 } })).toBe('$0.00');
    expect(shown(field(owners, 'Annual income'), { item: { annualIncome: 85000 } })).toBe('$85,000.00');
  });

  it('names the owner of each photo-id in the lists of documents', () => {
    for (const screen of [page('admin-office-documents'), page('enroll-docs-files')]) {
      const type = (columns(screen) as Array<Column & { header: string }>).find((c) => c.header === 'Type')!;
      const cell = (row: Json) => text(type.value ?? { var: `row.${type.id}` }, { row });
      expect(cell({ fileTypeName: 'Owner Photo ID', ownerName: "Maria O'Neil" })).toBe("Owner Photo ID: Maria O'Neil");
      expect(cell({ fileTypeName: 'W-9 Form', ownerName: null })).toBe('W-9 Form');
    }
  });
});
