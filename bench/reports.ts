/**
 * Reports (issue 40): Reports_GetReport's time over the bench set, one call at a time as an office admin opens the page —
 * the busy office, and every office as a platform admin — over the last 12 months. Target: 300 ms at p95 on PostgreSQL.
 */
import { percentile } from './stats.ts';

export const TARGET_REPORT_P95_MS = 300;

export interface ReportTimes {
  label: string;
  /** Applications started in the period that the report counted. */
  started: number;
  p50Ms: number;
  p95Ms: number;
}

/** The times of `count` calls after `warmup` unmeasured ones (the plans' first run and the connection pool). */
export async function reportTimes(base: string, token: string, label: string, body: object, count: number, warmup = 3): Promise<ReportTimes> {
  const call = async () => {
    const started = performance.now();
    const response = await fetch(`${base}/api/Reports/GetReport`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`Reports_GetReport (${label}) answered ${response.status}: ${text.slice(0, 500)}`);
    return { ms: performance.now() - started, started: (JSON.parse(text) as { funnel: { count: number }[] }).funnel[0]!.count };
  };
  for (let i = 0; i < warmup; i++) await call();
  const times: number[] = [];
  let started = 0;
  for (let i = 0; i < count; i++) {
    const result = await call();
    times.push(result.ms);
    started = result.started;
  }
  return { label, started, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
}
