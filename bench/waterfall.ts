/**
 * SubmitApp's waterfall (issue 5 benchmarks; over HTTP since issue 38): every lender active for the office is asked in
 * parallel, so with each lender answering after 1 s the whole call should answer in about 1 s (target p50 ≤ 1.1 s), and
 * with no lender latency the portal's own work is what remains (target p95 ≤ 100 ms).
 *
 * bench/run.ts starts the lender service and the server with LENDERS_DIR pointing at a copy of screens/lenders whose
 * sandbox latency is fixed (`lendersWithLatency`), then calls `submitAppTimes`. Each call starts a new
 * application (id 0) on the office device, as the office's staff does, and must pre-qualify.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { lenderCallbackKey, signLenderCallback } from '../core/lenders/callback-signature.ts';
import { loadLenderFiles } from '../core/lenders/descriptor.ts';
import type { Applicant } from '../core/lenders/terms.ts';
import { tellLenderNews } from '../server/lenders/http/news.ts';
import { lenderAdapter } from '../server/lenders/registry.ts';
import { askLenders } from '../server/lenders/waterfall.ts';
import { ROOT } from './profiles.ts';

export const TARGET_WATERFALL_MS = 1_100;
export const TARGET_SUBMIT_P95_MS = 100;

/** A copy of every lender descriptor with `latencyMs` and no simulated failures, in `dir`. */
export function lendersWithLatency(dir: string, latencyMs: number): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const source = join(ROOT, 'screens', 'lenders');
  for (const file of readdirSync(source).filter((name) => name.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(source, file), 'utf8')) as { sandbox: { latencyMs: unknown; failureRate: number } };
    doc.sandbox.latencyMs = latencyMs;
    doc.sandbox.failureRate = 0;
    writeFileSync(join(dir, file), `${JSON.stringify(doc, null, 2)}\n`);
  }
  return dir;
}

export interface SubmitCall {
  base: string;
  token: string;
  apiKey: string;
  officeId: number;
}

/** The pre-qualification form of a borrower every sandbox lender offers to (income 60,000, amount 4,500). */
function form(officeId: number, n: number): Record<string, unknown> {
  const digits = String(1_000_000 + ((Date.now() + n) % 9_000_000)).slice(-7);
  return {
    id: 0,
    officeId,
    firstName: 'Bench',
    lastName: 'Waterfall',
    email: `waterfall.${Date.now()}.${n}@example.com`,
    mobilePhone: `(512) ${digits.slice(0, 3)}-${digits.slice(3)}`,
    address: { streetAddress: '1234 Cedar Ln', city: 'Austin', state: 'TX', zipCode: '78704' },
    dob: '04/12/1985',
    ssn: '900-12-3456',
    annualIncome: 60_000,
    residenceStatus: 'Rent',
    monthlyHousingPayment: 1200,
    employmentStatus: 'EmployedFull',
    employerName: 'City Hospital',
    amount: 4_500,
    agreeToTerms: true,
    agreeToESign: true,
  };
}

/** One SubmitApp call's wall time; it must answer 200 with offers. */
async function submitApp(call: SubmitCall, n: number): Promise<{ ms: number; lenders: number }> {
  const started = performance.now();
  const response = await fetch(`${call.base}/api/App/SubmitApp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${call.token}`, 'x-api-key': call.apiKey, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(form(call.officeId, n)),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`SubmitApp answered ${response.status}: ${text.slice(0, 1_000)}`);
  const result = JSON.parse(text) as { isOfferMatch: boolean; lenders: unknown[] };
  if (!result.isOfferMatch) throw new Error(`SubmitApp found no offer: ${text.slice(0, 1_000)}`);
  return { ms, lenders: result.lenders.length };
}

/**
 * Wall time of `count` SubmitApp calls made one after another; with `alone`, each call is followed by one waterfall of
 * the lenders alone (`floor`), so that both figures come from the same minutes.
 */
export async function submitAppTimes(call: SubmitCall, count: number, alone?: LendersAlone): Promise<{ times: number[]; lenders: number; floor: number[] }> {
  const times: number[] = [];
  const floor: number[] = [];
  let lenders = 0;
  for (let n = 0; n < count; n++) {
    const one = await submitApp(call, n);
    times.push(one.ms);
    lenders = one.lenders;
    if (alone) floor.push(await alone.ask());
  }
  return { times, lenders, floor };
}

/** The borrower of `form`, as the portal hands it to its lender adapters (cents, ISO date, the SSN's digits). */
const applicant = (appId: number): Applicant => ({
  appId,
  firstName: 'Bench',
  lastName: 'Waterfall',
  email: `waterfall.${appId}@example.com`,
  mobilePhone: '(512) 555-0100',
  homePhone: null,
  address: { streetAddress: '1234 Cedar Ln', suiteNo: '', city: 'Austin', state: 'TX', zipCode: '78704' },
  dob: '1985-04-12',
  ssn: '900123456',
  annualIncome: 60_000_00,
  additionalIncome: null,
  monthlyHousingPayment: 1_200_00,
  employmentStatus: 'EmployedFull',
  employerName: 'City Hospital',
  monthsEmployed: null,
  residenceStatus: 'Rent',
  isActiveMilitary: false,
  amount: 4_500_00,
  serviceDate: null,
});

export interface LendersAlone {
  /** One waterfall's wall time: every lender asked at once, each answer awaited as SubmitApp awaits it. */
  ask(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The waterfall's floor on this machine at this hour: the same lenders asked by the portal's own adapters and
 * waterfall from the bench's process, with the lenders' callbacks taken by a bare receiver that checks their signature
 * and wakes the waiting adapter — no portal server, sign-in, database or records. SubmitApp's wall time less this is
 * the portal's own work around the lenders; this alone is the lenders, the network and the machine's wake-ups.
 */
export async function lendersAlone(lendersDir: string, servicePort: number, callbackSecret: string): Promise<LendersAlone> {
  const secret = Buffer.from(callbackSecret, 'base64');
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: { lenderCode?: unknown; lenderAppId?: unknown } = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as typeof body;
      } catch {
        // Not JSON: refused below like a bad signature, not a crash of the bench.
      }
      const { lenderCode, lenderAppId } = body;
      const given = Buffer.from(String(request.headers['x-lender-signature']));
      const signed = (code: string) => Buffer.from(signLenderCallback(lenderCallbackKey({ lenderCallbackSecret: secret }, code), String(request.headers['x-lender-timestamp']), raw));
      const valid = typeof lenderCode === 'string' && typeof lenderAppId === 'string' && given.length === signed(lenderCode).length && timingSafeEqual(given, signed(lenderCode));
      if (valid) tellLenderNews(lenderCode, lenderAppId);
      response.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: valid }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const lenderEnv = { LENDER_SERVICE_PORT: String(servicePort), LENDER_CALLBACK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback` };
  const settings = { lendersDir, mode: 'demo' as const, publicUrl: 'http://127.0.0.1', lenderEnv };
  const entries = loadLenderFiles(lendersDir).map((descriptor, i) => ({ adapter: lenderAdapter(descriptor, settings, { teach: false }), lenderId: i + 1, discountRate: null }));
  let appId = 2_000_000_000;
  return {
    async ask() {
      const started = performance.now();
      const answers = await askLenders(entries, applicant(appId++), 10_000);
      const wall = performance.now() - started;
      const failed = answers.filter((answer) => answer.status === 'Error' || answer.status === 'TimedOut' || answer.status === 'PendingReview');
      if (failed.length) throw new Error(`The lenders alone: ${failed.map((answer) => `${answer.code} ${answer.status}`).join(', ')}`);
      return wall;
    },
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}
