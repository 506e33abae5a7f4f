import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../core/html.ts';
import { formatCents } from '../core/i18n.ts';
import { SOURCE_LANGUAGE } from '../core/current-language.ts';
import { normalName } from '../core/typed-name.ts';
import { lenderSitePage, sitePagePolicy } from '../core/lenders/site-page.ts';
import type { LenderDescriptor } from '../core/lenders/descriptor.ts';
import type { ServiceContext } from './context.ts';
import type { LenderApplication } from './store.ts';

/**
 * The hosted-signing lenders' pages (the ideas of the portal's sandbox site, server/lenders/site.ts): the application
 * with its approval, then the signing page with the terms and the lender's disclosures, a typed name and a tick. On signing the lender posts a signed ContractStatus callback
 * and sends the browser back to the caller's returnUrl. The page's address carries a one-signing token, the only key
 * to it.
 */

const money = (cents: number) => formatCents(SOURCE_LANGUAGE.tag, cents);

function signPage(lender: LenderDescriptor, application: LenderApplication, error?: string, typedName = ''): string {
  const { terms } = application.contract!;
  const rows = [
    ['Plan', terms.productName],
    ['Amount financed', money(terms.amount)],
    ['APR', `${terms.apr.toFixed(3)}%`],
    ['Term', `${terms.term} months`],
    ['Monthly payment', money(terms.monthlyPayment)],
  ];
  const disclosures = lender.disclosures.filter((d) => (d.showWith ?? 'both') !== 'offers').map((d) => `<h2>${escapeHtml(d.title)}</h2><p>${escapeHtml(d.text)}</p>`).join('');
  return lenderSitePage(
    lender.name,
    'Sign your loan agreement',
    'Lender service',
    `<h1>Sign your loan agreement</h1>
<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>
${disclosures}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
<label for="typedName">Type your full name<input type="text" id="typedName" name="typedName" required maxlength="100" autocomplete="name" value="${escapeHtml(typedName)}"></label>
<label class="check" for="agree"><input type="checkbox" id="agree" name="agree" value="yes" required> I have read the loan agreement and I agree to its terms.</label>
<button type="submit">Sign with ${escapeHtml(lender.name)}</button>
</form>`,
  );
}

/** Where the borrower lands: their application at the lender, its approval, and the way to the signing. */
function applicationPage(lender: LenderDescriptor, application: LenderApplication, signUrl: string): string {
  const approved = application.answer?.approvedAmount;
  return lenderSitePage(
    lender.name,
    'Your application',
    'Lender service',
    `<h1>Your application ${escapeHtml(application.lenderAppId)}</h1>
<p>Hello ${escapeHtml(application.applicant.firstName)}. You are approved${approved ? ` for up to ${escapeHtml(money(approved))}` : ''}.</p>
<h2>Your loan documents</h2>
<p>Your loan documents for the ${escapeHtml(application.contract!.terms.productName)} are ready.</p>
<p><a class="button" href="${escapeHtml(signUrl)}">Review and sign</a></p>`,
  );
}

/** `returnUrl`: where the page's form sends the browser once signed (the caller's site, which its policy must name). */
const html = (reply: FastifyReply, status: number, body: string, returnUrl?: string) =>
  reply
    .code(status)
    .header('content-security-policy', sitePagePolicy(returnUrl ? [new URL(returnUrl).origin] : []))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);

export function registerSigningSite(app: FastifyInstance, service: ServiceContext): void {
  type Params = { code: string; token: string };
  /** The signing a page's token opens, still to be signed; answers the page that says why not otherwise. */
  const open = (request: FastifyRequest, reply: FastifyReply): LenderApplication | undefined => {
    const { code, token } = request.params as Params;
    const application = service.store.bySigning(token);
    if (application?.code === code && application.contract?.status === 'Selected') return application;
    void html(reply, 404, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>There is nothing to sign here</h1></body></html>');
    return undefined;
  };

  app.get('/signing/:code/:token', async (request, reply) => {
    const application = open(request, reply);
    const { code, token } = request.params as Params;
    const signUrl = `/signing/${encodeURIComponent(code)}/${encodeURIComponent(token)}/sign`;
    if (application) return html(reply, 200, applicationPage(service.lenders.get(application.code)!.descriptor, application, signUrl));
  });

  app.get('/signing/:code/:token/sign', async (request, reply) => {
    const application = open(request, reply);
    if (application) return html(reply, 200, signPage(service.lenders.get(application.code)!.descriptor, application), application.signing!.returnUrl);
  });

  app.post('/signing/:code/:token/sign', async (request, reply) => {
    // A form posted here comes from this page, as the browser says (fetch metadata), never from another site.
    if (request.headers['sec-fetch-site'] !== 'same-origin' && request.headers.origin !== service.origin()) return reply.code(403).send();
    const application = open(request, reply);
    if (!application) return;
    const lender = service.lenders.get(application.code)!.descriptor;
    const form = (request.body ?? {}) as Record<string, unknown>;
    const typedName = typeof form.typedName === 'string' ? form.typedName.slice(0, 100) : '';
    const { firstName, lastName } = application.applicant;
    if (normalName(typedName) !== normalName(`${firstName} ${lastName}`)) return html(reply, 400, signPage(lender, application, 'Type your first and last name as they are on your application.', typedName), application.signing!.returnUrl);
    if (form.agree !== 'yes') return html(reply, 400, signPage(lender, application, 'Tick the box to agree to the loan agreement.', typedName), application.signing!.returnUrl);
    const contract = application.contract!;
    contract.status = 'Signed';
    contract.signedAt = new Date().toISOString();
    await service.callbacks.send(application.callbackUrl!, {
      lenderCode: application.code,
      appId: application.appId,
      lenderAppId: application.lenderAppId,
      eventType: 'ContractStatus',
      contractStatus: 'Signed',
      data: { contractId: contract.contractId, signedOn: 'lender service' },
    });
    return reply.redirect(application.signing!.returnUrl, 303);
  });
}
