/**
 * SubmitApp's waterfall (issue 5 benchmarks; over HTTP since issue 38): every lender active for the office is asked in
 * parallel, so with each lender answering after 1 s the whole call should answer in about 1 s (target p50 ≤ 1.1 s), and
 * with no lender latency the portal's own work is what remains (target p95 ≤ 100 ms).
 *
 * bench/run.ts starts the lender service and the server with LENDERS_DIR pointing at a copy of screens/lenders whose
 * sandbox latency is fixed (`lendersWithLatency`), then calls `submitAppTimes`. Each call starts a new
 * application (id 0) on the office device, as the office's staff does, and must pre-qualify.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Wall time of `count` SubmitApp calls made one after another; each must answer 200 with offers. */
export async function submitAppTimes(call: SubmitCall, count: number): Promise<{ times: number[]; lenders: number }> {
  const times: number[] = [];
  let lenders = 0;
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    const response = await fetch(`${call.base}/api/App/SubmitApp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${call.token}`, 'x-api-key': call.apiKey, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(form(call.officeId, n)),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`SubmitApp answered ${response.status}: ${text.slice(0, 1_000)}`);
    const result = JSON.parse(text) as { isOfferMatch: boolean; lenders: unknown[] };
    if (!result.isOfferMatch) throw new Error(`SubmitApp found no offer: ${text.slice(0, 1_000)}`);
    lenders = result.lenders.length;
  }
  return { times, lenders };
}
