import type { Applicant, LenderAdapter, LenderDecision, PrequalAnswer } from './types.ts';

/**
 * The waterfall: every lender asked at once; each answer is awaited at most `timeoutMs`, so a slow or
 * failing lender never holds up the others (docs/decisions/0101). A lender past its time is TimedOut
 * and its adapter is told to stop (AbortSignal); one that throws is Error.
 */
export interface WaterfallEntry {
  adapter: LenderAdapter;
  lenderId: number;
  /** The office's discount rate with this lender, percent; the product's own when null. */
  discountRate: number | null;
}

export interface WaterfallAnswer extends Omit<PrequalAnswer, 'status'> {
  status: LenderDecision;
  code: string;
  lenderId: number;
  latencyMs: number;
}

const failed = (status: 'Error' | 'TimedOut', reason: string): Omit<PrequalAnswer, 'status'> & { status: LenderDecision } => ({
  status,
  lenderAppId: null,
  lenderAppUrl: null,
  adverseActionReason: reason,
  reasonCodes: [status === 'TimedOut' ? 'TIMEOUT' : 'ERROR'],
  approvedAmount: null,
  offers: [],
  expiresAt: null,
});

class Timeout extends Error {}

export async function askLenders(entries: readonly WaterfallEntry[], applicant: Applicant, timeoutMs: number): Promise<WaterfallAnswer[]> {
  return Promise.all(
    entries.map(async ({ adapter, lenderId, discountRate }): Promise<WaterfallAnswer> => {
      const started = performance.now();
      const deadline = Date.now() + timeoutMs;
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(new Timeout());
          reject(new Timeout());
        }, timeoutMs);
      });
      let answer: Omit<PrequalAnswer, 'status'> & { status: LenderDecision };
      try {
        answer = await Promise.race([adapter.prequalify(applicant, { signal: controller.signal, discountRate, deadline }), late]);
      } catch (error) {
        answer = error instanceof Timeout
          ? failed('TimedOut', `The lender did not answer within ${Math.round(timeoutMs / 100) / 10} s`)
          : failed('Error', 'The lender could not be reached');
      } finally {
        clearTimeout(timer);
      }
      return { ...answer, code: adapter.code, lenderId, latencyMs: Math.round(performance.now() - started) };
    }),
  );
}
