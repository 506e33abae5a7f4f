import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applicationLenders, applications, lenders, offers } from '../db/schema.ts';
import { CALLBACK_PATH } from './portal-addresses.ts';
import { normalName } from '../../core/typed-name.ts';
import { AFTER_SIGNING, SIGNING_OPEN } from '../../core/signing-stages.ts';
import type { Services } from '../services.ts';
import { escapeHtml } from '../../core/html.ts';
import { lenderCatalogue } from './registry.ts';
import { lenderCallbackKey, signLenderCallback } from '../../core/lenders/callback-signature.ts';
import type { LenderDescriptor } from '../../core/lenders/descriptor.ts';
import { sandboxAppUrl, SITE_PATH } from './sandbox.ts';
import { lenderSitePage, sitePagePolicy } from '../../core/lenders/site-page.ts';
import { formatCents } from '../../core/i18n.ts';
import { SOURCE_LANGUAGE } from '../../core/current-language.ts';

/**
 * The sandbox lenders' own site (issue 16, docs/decisions/0191): what a lender hosts — the application with its
 * decision, the underwriter's decision on a review, and the signing of the loan documents when the lender's
 * `journey.esign` is `lender` — served by this server under /sandbox/lenders/{code}/, in demo mode, for the lenders
 * the sandbox adapter answers for. Each page is made of its lender's file (name, phone, disclosures, journey) and the
 * lender's answer (its application id, decision and offers); nothing here names a lender. What the lender decides
 * reaches the portal as a real lender's would: a signed callback to App_ProcessLenderCallback (decision 0110), after
 * which the page sends the borrower back to the portal.
 */


const money = (cents: number | null) => (cents === null ? '—' : formatCents(SOURCE_LANGUAGE.tag, cents));
const apr = (value: string | number | null) => (value === null ? '—' : `${Number(value).toFixed(3)}%`);

function page(lender: LenderDescriptor, title: string, body: string): string {
  const subtitle = `Sandbox site${lender.phone ? ` · ${escapeHtml(lender.phone)}` : ''}`;
  const notice = `<p class="notice">A sandbox stands in for ${escapeHtml(lender.name)}'s own site: no credit is extended and no credit report is pulled.</p>`;
  return lenderSitePage(lender.name, title, subtitle, `${notice}\n${body}`);
}

interface Found {
  lender: LenderDescriptor;
  lenderId: number;
  answer: typeof applicationLenders.$inferSelect;
  app: typeof applications.$inferSelect;
}

/** The application a lender knows by its own id; undefined when this lender gave no such id. */
async function findApplication(services: Services, code: string, lenderAppId: string): Promise<Found | undefined> {
  const lender = lenderCatalogue(services.settings).get(code)?.descriptor;
  if (!lender) return undefined;
  const { db } = services;
  const [row] = await db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, code));
  if (!row) return undefined;
  const [answer] = await db.select().from(applicationLenders).where(and(eq(applicationLenders.lenderId, row.id), eq(applicationLenders.lenderAppId, lenderAppId)));
  if (!answer) return undefined;
  const [app] = await db.select().from(applications).where(eq(applications.id, answer.appId));
  return app ? { lender, lenderId: row.id, answer, app } : undefined;
}

const portalUrl = (services: Services, appId: number) => `${services.settings.publicUrl}/#/app/borrower/${appId}`;
const isChosen = (found: Found) => found.app.lenderId === found.lenderId;
const signsHere = (found: Found) => found.lender.journey.esign === 'lender' && isChosen(found) && SIGNING_OPEN.has(found.app.stage);
const signedHere = (found: Found) => isChosen(found) && AFTER_SIGNING.includes(found.app.stage);

function backToPortal(services: Services, found: Found): string {
  return `<p><a class="button" href="${escapeHtml(portalUrl(services, found.app.id))}">Back to ${escapeHtml(found.app.firstName)}'s application</a></p>`;
}

async function applicationPage(services: Services, found: Found, base: string): Promise<string> {
  const { lender, answer, app } = found;
  const rows = await services.db.select().from(offers).where(and(eq(offers.appId, app.id), eq(offers.lenderId, found.lenderId)));
  const decision =
    answer.status === 'Approved' ? `You are approved${rows.length ? ` for up to ${money(Math.max(...rows.map((o) => o.maxLine ?? 0)))}` : ''}.`
    : answer.status === 'PendingReview' ? 'Your application is in review: we let you know as soon as it is decided.'
    : answer.status === 'Declined' ? `We could not approve this application${answer.adverseActionReason ? `: ${answer.adverseActionReason}` : ''}.`
    : 'We have no decision on this application yet.';
  const table = rows.length
    ? `<h2>Your offers</h2><table><thead><tr><th scope="col">Plan</th><th scope="col">APR</th><th scope="col">Term</th><th scope="col">Monthly payment</th></tr></thead><tbody>${rows
        .map((o) => `<tr id="${escapeHtml(o.productCode.toLowerCase())}"><td>${escapeHtml(o.productName ?? o.productCode)}${o.isSelected ? ' (chosen)' : ''}</td><td>${apr(o.apr)}</td><td>${o.term ?? '—'} months</td><td>${money(o.monthlyPayment)}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  const next = signsHere(found)
    ? `<h2>Your loan documents</h2><p>Your loan documents for the ${escapeHtml(app.productName ?? 'chosen plan')} are ready.</p><p><a class="button" href="${escapeHtml(`${base}/sign`)}">Review and sign</a></p>`
    : signedHere(found) ? `<h2>Your loan documents</h2><p>Your loan agreement is signed.</p>${backToPortal(services, found)}`
    : answer.status === 'PendingReview' ? `<h2>Underwriting</h2><p><a href="${escapeHtml(`${base}/decision`)}">Decide this application (sandbox underwriter)</a></p>`
    : backToPortal(services, found);
  return page(lender, 'Your application', `<h1>Your application ${escapeHtml(answer.lenderAppId ?? '')}</h1><p>Hello ${escapeHtml(app.firstName)}. ${escapeHtml(decision)}</p>${table}${next}`);
}

function signPage(services: Services, found: Found, error?: string, typedName = ''): string {
  const { lender, app } = found;
  const terms = [
    ['Plan', app.productName ?? app.productCode ?? '—'],
    ['Amount financed', money(app.amount)],
    ['APR', apr(app.apr)],
    ['Term', app.term ? `${app.term} months` : '—'],
    ['Monthly payment', money(app.monthlyPayment)],
  ];
  const disclosures = lender.disclosures.filter((d) => (d.showWith ?? 'both') !== 'offers').map((d) => `<h2>${escapeHtml(d.title)}</h2><p>${escapeHtml(d.text)}</p>`).join('');
  return page(
    lender,
    'Sign your loan agreement',
    `<h1>Sign your loan agreement</h1>
<table><tbody>${terms.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k!)}</th><td>${escapeHtml(v!)}</td></tr>`).join('')}</tbody></table>
${disclosures}
<h2>Signature</h2>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<label for="typedName">Type your full name<input type="text" id="typedName" name="typedName" required maxlength="100" autocomplete="name" value="${escapeHtml(typedName)}"></label>
<label class="check" for="agree"><input type="checkbox" id="agree" name="agree" value="yes" required> I have read the loan agreement and I agree to its terms.</label>
<button type="submit">Sign with ${escapeHtml(lender.name)}</button>
</form>
${backToPortal(services, found)}`,
  );
}

function decisionPage(found: Found, base: string): string {
  return page(
    found.lender,
    'Underwriting',
    `<h1>Underwriting: application ${escapeHtml(found.answer.lenderAppId ?? '')}</h1>
<p>The application of ${escapeHtml(found.app.firstName)} for ${money(found.app.amount)} waits for a decision. The sandbox's underwriter decides here; the portal is told by a signed callback.</p>
<form method="post" action="${escapeHtml(`${base}/decision`)}">
<button type="submit" name="decision" value="Approved">Approve</button>
<button type="submit" name="decision" value="Declined" class="secondary">Decline</button>
</form>`,
  );
}

/** Sends a signed callback as the lender would (decision 0110), through the server's own route: answers its status and detail. */
async function sendCallback(app: FastifyInstance, services: Services, found: Found, event: Record<string, unknown>): Promise<{ ok: boolean; detail: string }> {
  const code = found.lender.code;
  const body = JSON.stringify({ lenderCode: code, appId: found.app.id, lenderAppId: found.answer.lenderAppId, occurredAtUtc: new Date().toISOString(), ...event });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await app.inject({
    method: 'POST',
    url: CALLBACK_PATH,
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-api-key': services.settings.webApiKey,
      'x-lender-timestamp': timestamp,
      'x-lender-signature': signLenderCallback(lenderCallbackKey(services.settings, code), timestamp, body),
    },
  });
  const answer = JSON.parse(response.body || '{}') as { detail?: string; message?: string };
  return { ok: response.statusCode === 200, detail: answer.detail ?? answer.message ?? '' };
}

/**
 * A form posted to these pages comes from these pages, as the browser says: in Sec-Fetch-Site, or in Origin (which is
 * 'null' under this server's no-referrer policy, so the fetch metadata is what a browser of today shows).
 */
function fromThisSite(services: Services, request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] === 'same-origin' || request.headers.origin === new URL(services.settings.publicUrl).origin;
}

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('content-security-policy', sitePagePolicy()).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

/** The sandbox lenders' pages (demo mode only, registered by server/app.ts). */
export async function registerSandboxLenderSite(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    type Params = { code: string; lenderAppId: string };
    const base = (p: Params) => sandboxAppUrl(`${services.settings.publicUrl}${SITE_PATH}`, p.code, p.lenderAppId);
    const load = async (request: FastifyRequest, reply: FastifyReply): Promise<Found | undefined> => {
      const p = request.params as Params;
      const found = await findApplication(services, p.code, p.lenderAppId);
      if (!found) void html(reply, 404, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>This application could not be found</h1></body></html>');
      return found;
    };
    const refuse = (reply: FastifyReply, found: Found, status: number, text: string) =>
      html(reply, status, page(found.lender, 'Not available', `<h1>Not available</h1><p class="error" role="alert">${escapeHtml(text)}</p>${backToPortal(services, found)}`));
    const prefix = `${SITE_PATH}/:code/applications/:lenderAppId`;

    scope.get(prefix, async (request, reply) => {
      const found = await load(request, reply);
      if (found) return html(reply, 200, await applicationPage(services, found, base(request.params as Params)));
    });

    scope.get(`${prefix}/sign`, async (request, reply) => {
      const found = await load(request, reply);
      if (!found) return;
      if (signedHere(found)) return html(reply, 200, await applicationPage(services, found, base(request.params as Params)));
      if (!signsHere(found)) return refuse(reply, found, 409, 'There is nothing to sign here for this application.');
      return html(reply, 200, signPage(services, found));
    });

    scope.post(`${prefix}/sign`, async (request, reply) => {
      const found = await load(request, reply);
      if (!found) return;
      if (!fromThisSite(services, request)) return refuse(reply, found, 403, 'This form can only be sent from its own page.');
      // A second press (or a reload of the answer) finds the agreement signed: back to the portal, nothing sent again.
      if (signedHere(found)) return reply.redirect(portalUrl(services, found.app.id), 303);
      if (!signsHere(found)) return refuse(reply, found, 409, 'There is nothing to sign here for this application.');
      const form = (request.body ?? {}) as Record<string, unknown>;
      const typedName = typeof form.typedName === 'string' ? form.typedName.slice(0, 100) : '';
      if (normalName(typedName) !== normalName(`${found.app.firstName} ${found.app.lastName}`)) {
        return html(reply, 400, signPage(services, found, 'Type your first and last name as they are on your application.', typedName));
      }
      if (form.agree !== 'yes') return html(reply, 400, signPage(services, found, 'Tick the box to agree to the loan agreement.', typedName));
      const sent = await sendCallback(app, services, found, { eventType: 'ContractStatus', contractStatus: 'Signed', data: { signedOn: 'sandbox site' } });
      if (!sent.ok) return refuse(reply, found, 409, sent.detail || 'The signature could not be recorded.');
      return reply.redirect(portalUrl(services, found.app.id), 303);
    });

    scope.get(`${prefix}/decision`, async (request, reply) => {
      const found = await load(request, reply);
      if (!found) return;
      if (found.answer.status !== 'PendingReview') return html(reply, 200, await applicationPage(services, found, base(request.params as Params)));
      return html(reply, 200, decisionPage(found, base(request.params as Params)));
    });

    scope.post(`${prefix}/decision`, async (request, reply) => {
      const found = await load(request, reply);
      if (!found) return;
      if (!fromThisSite(services, request)) return refuse(reply, found, 403, 'This form can only be sent from its own page.');
      if (found.answer.status !== 'PendingReview') return refuse(reply, found, 409, 'This application is already decided.');
      const decision = (request.body as Record<string, unknown> | undefined)?.decision;
      if (decision !== 'Approved' && decision !== 'Declined') return refuse(reply, found, 400, 'Choose Approve or Decline.');
      const sent = await sendCallback(app, services, found, { eventType: 'Decision', decisionStatus: decision });
      if (!sent.ok) return refuse(reply, found, 409, sent.detail || 'The decision could not be recorded.');
      const decided = await findApplication(services, found.lender.code, found.answer.lenderAppId!);
      return html(reply, 200, await applicationPage(services, decided ?? found, base(request.params as Params)));
    });
  });
}
