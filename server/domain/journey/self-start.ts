import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { components } from '../../../codegen/generated/api.ts';
import { ROOT } from '../../../core/contract/documents.ts';
import { applications } from '../../db/schema.ts';
import { requestLocale, wordsFor } from '../../descriptors/languages.ts';
import { clientNetwork } from '../../http/client.ts';
import { recordSecurityEvent } from '../../http/security-events.ts';
import { publicOfficeByCode } from '../offices/public-pages.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { isOptedOut } from '../../notify/optouts.ts';
import type { Services } from '../../services.ts';
import { writeLogs } from '../applications/records.ts';
import { issuePasscode } from '../otp/handlers.ts';
import { toCents } from '../values.ts';
import { requirePersonalEmail } from './send.ts';

type Schemas = components['schemas'];

/** How often one client address, and one office's page, may start applications (decision 0217). */
export const SELF_START = { perAddressPerHour: 5, perOfficePerHour: 30 } as const;

/** The consent the patient ticks, as the contract words it (the form shows it, translated). */
const CONTACT_CONSENT = (JSON.parse(readFileSync(join(ROOT, 'schemas', 'api', 'start-app.json'), 'utf8')) as { properties: { agreeToContact: { title: string } } }).properties.agreeToContact
  .title;

/**
 * App_StartApp (issue 19, decision 0217): the patient starts an application from the office's landing page or its QR
 * code; the passcode sent to the contact they gave opens it. One transaction: the limits, the application, the
 * consent to be contacted (its words as shown, language, channel and time), the challenge and the message.
 */
export async function startApplication(services: Services, caller: Caller, body: Schemas['StartApp'], request: FastifyRequest): Promise<Schemas['OtpSendResult']> {
  const { db, settings } = services;
  const office = await publicOfficeByCode(db, body.code);
  const destination = body.channel === 'Email' ? body.email?.toLowerCase() : body.mobilePhone;
  if (!destination) throw HttpProblem.validation({ [body.channel === 'Email' ? 'email' : 'mobilePhone']: ['This field is required.'] });
  if (body.channel === 'Email') await requirePersonalEmail(db, office.id, destination);
  else if (await isOptedOut(db, destination)) throw HttpProblem.conflict('This mobile phone opted out of text messages. Ask for the passcode by e-mail.');
  const language = requestLocale(request);
  const shown = wordsFor(language)(CONTACT_CONSENT);
  const network = clientNetwork(request);
  const result = await db.transaction(async (tx) => {
    const counts = await tx.execute<{ address: number; office: number }>(sql`
      select count(*) filter (where ip = ${network})::int as address, count(*) filter (where actor = ${`office:${office.id}`})::int as office
      from security_events where kind = 'app-self-started' and created_at > now() - interval '1 hour'`);
    if (Number(counts.rows[0]?.address ?? 0) >= SELF_START.perAddressPerHour) throw HttpProblem.tooMany('Too many applications were started from this address. Try again later.', 3600);
    if (Number(counts.rows[0]?.office ?? 0) >= SELF_START.perOfficePerHour) throw HttpProblem.tooMany('This office has had many applications started in the last hour. Ask the office to text or e-mail you a link.', 3600);
    await recordSecurityEvent(tx, { kind: 'app-self-started', actor: `office:${office.id}`, ip: network, detail: { channel: body.channel } });
    const [app] = await tx
      .insert(applications)
      .values({
        officeId: office.id,
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        email: body.channel === 'Email' ? destination : null,
        mobilePhone: body.channel === 'Sms' ? destination : null,
        amount: toCents(body.amount),
        language,
        inOfficeApply: false,
        statusText: 'Started by the patient: waiting for the passcode',
      })
      .returning({ id: applications.id });
    await writeLogs(tx, app!.id, caller, [
      {
        kind: 'Event',
        message: "Application started by the patient from the office's page",
        data: { consent: { kind: 'contact', channel: body.channel, language: language ?? 'en', text: shown, sha256: createHash('sha256').update(shown).digest('hex'), ip: request.ip } },
      },
    ]);
    return issuePasscode(tx, settings.borrowerTokenSecret, { appId: app!.id, channel: body.channel, destination, language });
  });
  return result;
}
