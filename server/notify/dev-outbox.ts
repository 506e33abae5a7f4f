import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../http/caller.ts';
import { fromThisMachine } from '../http/local.ts';
import { HttpProblem } from '../http/problem.ts';
import { escapeHtml } from '../../core/html.ts';
import type { Db } from '../db/index.ts';
import { outbox, smsOptOuts } from '../db/schema.ts';
import { receiveSmsReply } from './optouts.ts';
import type { OutboxMessage } from '../../codegen/generated/schemas.ts';
import { safeLink } from '../../core/urls.ts';

/**
 * The demo outbox (docs/decisions/0104): every e-mail and text the product queued, newest first, as a
 * plain server-rendered page at /dev/outbox and as JSON at /api/dev/outbox (Dev outbox operation of
 * the contract). Both exist in demo mode only; production answers 404. The page also simulates an
 * inbound text reply (STOP …) the way the SMS gateway's webhook would deliver it.
 */
export async function outboxEntries(db: Db, query: { to?: string; limit?: number }): Promise<OutboxMessage[]> {
  const to = query.to?.trim();
  const rows = await db
    .select()
    .from(outbox)
    .where(to ? eq(outbox.recipient, to.includes('@') ? to.toLowerCase() : to) : undefined)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(query.limit ?? 100);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    links: row.links,
    status: row.status,
    createdAtUtc: row.createdAt.toISOString(),
    sentAtUtc: row.sentAt ? row.sentAt.toISOString() : null,
  }));
}

export async function optOutList(db: Db): Promise<{ phone: string; createdAtUtc: string }[]> {
  const rows = await db.select().from(smsOptOuts).orderBy(desc(smsOptOuts.createdAt)).limit(200);
  return rows.map((row) => ({ phone: row.phone, createdAtUtc: row.createdAt.toISOString() }));
}

const formatPhone = (digits: string) => (digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : digits);

export function renderOutboxPage(entries: OutboxMessage[], optOuts: { phone: string; createdAtUtc: string }[], notice?: string): string {
  const rows = entries
    .map((entry) => {
      const links = entry.links
        // Only a link the portal's pages would follow becomes an anchor (decision 0250); anything else is shown as text.
        .map((link) => (safeLink(link.url) ? `<a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a>` : escapeHtml(`${link.label}: ${link.url}`)))
        .join('<br>');
      return `<tr>
  <td><time datetime="${entry.createdAtUtc}">${escapeHtml(entry.createdAtUtc.replace('T', ' ').slice(0, 19))} UTC</time></td>
  <td>${entry.channel === 'Sms' ? 'SMS' : 'E-mail'}</td>
  <td class="to">${escapeHtml(entry.recipient)}</td>
  <td>${entry.subject ? `<strong>${escapeHtml(entry.subject)}</strong><br>` : ''}<pre>${escapeHtml(entry.body)}</pre></td>
  <td>${links || '—'}</td>
  <td>${entry.status}</td>
</tr>`;
    })
    .join('\n');
  const stopped = optOuts.map((o) => `<li>${escapeHtml(formatPhone(o.phone))} <small>since ${escapeHtml(o.createdAtUtc.slice(0, 19).replace('T', ' '))} UTC</small></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox (demo)</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1a1a1a; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .5rem; text-align: left; vertical-align: top; font-size: .9rem; }
th { background: #f3f6fd; }
pre { white-space: pre-wrap; margin: 0; font-family: inherit; }
a { color: #286df6; }
.notice { background: #e8f9ed; border: 1px solid #1ace48; padding: .5rem 1rem; }
form { display: flex; gap: .5rem; align-items: end; flex-wrap: wrap; }
label { display: flex; flex-direction: column; font-size: .85rem; }
input { padding: .35rem; font-size: 1rem; }
button { padding: .45rem 1rem; background: #286df6; color: #fff; border: 0; border-radius: 4px; font-size: 1rem; }
</style>
</head>
<body>
<h1>Outbox <small>(demo mode: every e-mail and text message the portal sent)</small></h1>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}
<h2>Simulate a text reply</h2>
<form method="post" action="/dev/outbox/sms">
  <label for="from">From mobile phone<input id="from" name="from" required maxlength="20" placeholder="(512) 555-0100"></label>
  <label for="text">Reply<input id="text" name="text" required maxlength="160" value="STOP"></label>
  <button type="submit">Send reply</button>
</form>
<h2>Opted-out numbers</h2>
${stopped ? `<ul>${stopped}</ul>` : '<p>None.</p>'}
<h2>Messages</h2>
<table>
<thead><tr><th scope="col">Time</th><th scope="col">Channel</th><th scope="col">Recipient</th><th scope="col">Text</th><th scope="col">Links</th><th scope="col">Status</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="6">No messages yet.</td></tr>'}
</tbody>
</table>
</body>
</html>
`;
}

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The outbox holds every passcode and link the portal sent: in demo mode it answers a request from this machine, or
 * from a platform admin (the JSON, which a bearer token reaches), and nobody else (docs/decisions/0174).
 */
export function requireOutboxReader(request: FastifyRequest, caller?: Caller): void {
  if (fromThisMachine(request) || (caller?.kind === 'staff' && caller.userRole === 'df.admin')) return;
  throw new HttpProblem(403, 'The demo outbox answers only on the machine the portal runs on, or to a platform admin.');
}

/**
 * The reply form changes who gets texts: only this page may send it. A browser names where a write comes from
 * (Sec-Fetch-Site, Origin); another site's form or script is refused, a tool on this machine that names none is not.
 */
function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const own = `${request.protocol}://${request.host}`;
  if ((site !== undefined && site !== 'same-origin') || (origin !== undefined && origin !== own)) {
    throw new HttpProblem(403, 'The outbox page takes replies from its own form only.');
  }
}

/** The demo-mode page and its reply form. Never registered in production mode; on this machine only. */
export async function registerDevOutboxPage(app: FastifyInstance, db: Db): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => requireOutboxReader(request));
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    const page = async (notice?: string) => renderOutboxPage(await outboxEntries(db, { limit: 200 }), await optOutList(db), notice);
    scope.get('/dev/outbox', async (_request, reply) => {
      reply.header('content-security-policy', PAGE_POLICY).header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return page();
    });
    scope.post('/dev/outbox/sms', async (request, reply) => {
      refuseCrossSite(request);
      const form = (request.body ?? {}) as Record<string, unknown>;
      const from = typeof form.from === 'string' ? form.from.slice(0, 20) : '';
      const text = typeof form.text === 'string' ? form.text.slice(0, 160) : '';
      const outcome = await receiveSmsReply(db, { from, text });
      const notice =
        outcome === 'opted-out' ? `${from} replied '${text}': opted out, no more texts go to it.`
        : outcome === 'opted-in' ? `${from} replied '${text}': opted in again.`
        : `${from} replied '${text}': not an opt-out keyword (or not a US mobile number), nothing changed.`;
      reply.header('content-security-policy', PAGE_POLICY).header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return page(notice);
    });
  });
}
