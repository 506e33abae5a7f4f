import type { CpuUse } from './cpu.ts';
import type { Measurement } from './load.ts';
import type { DatabaseKind } from './profiles.ts';

export interface Row {
  scenario: string;
  database: DatabaseKind | '—';
  connections: number;
  measurement: Measurement;
  cpu: CpuUse;
}

/** A goal of the portal for one scenario on one database; printed, not asserted. */
interface Target {
  scenario: string;
  database: DatabaseKind;
  connections: number;
  maxP99Ms: number;
  minRequestsPerSecond: number;
}

export const TARGETS: readonly Target[] = [
  // Issue 2: the Home list under 16 connections (issue 17 measures its throughput against its floor instead: run.ts).
  { scenario: 'GetOfficeApps', database: 'postgres', connections: 16, maxP99Ms: 25, minRequestsPerSecond: 0 },
  // Issue 17: the kanban's lanes under 16 connections.
  { scenario: 'GetOfficeAppsByStage', database: 'postgres', connections: 16, maxP99Ms: 50, minRequestsPerSecond: 600 },
  // Issue 6: the Home list and the kanban's lanes over the 5,000-application office, one user at a time.
  { scenario: 'GetOfficeApps', database: 'postgres', connections: 1, maxP99Ms: 25, minRequestsPerSecond: 0 },
  { scenario: 'GetOfficeAppsByStage', database: 'postgres', connections: 1, maxP99Ms: 25, minRequestsPerSecond: 0 },
];

export const HELLO = 'hello-world';

const whole = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
const percent = (n: number | undefined) => (n === undefined ? '—' : `${Math.round(n)} %`);

function verdict(row: Row): string {
  const target = TARGETS.find((t) => t.scenario === row.scenario && t.database === row.database && t.connections === row.connections);
  if (!target) return '—';
  const { p99, requestsPerSecond } = row.measurement;
  const misses = [
    p99 > target.maxP99Ms ? `p99 ${ms(p99)} > ${target.maxP99Ms}` : undefined,
    requestsPerSecond < target.minRequestsPerSecond ? `${whole(requestsPerSecond)} < ${whole(target.minRequestsPerSecond)} req/s` : undefined,
  ].filter(Boolean);
  const goal = `p99 ≤ ${target.maxP99Ms} ms${target.minRequestsPerSecond ? `, ≥ ${whole(target.minRequestsPerSecond)} req/s` : ''}`;
  return misses.length === 0 ? `PASS (${goal})` : `MISS (${goal}: ${misses.join(', ')})`;
}

/** The result table, as fixed-width text. */
export function formatTable(rows: readonly Row[]): string {
  const hello = rows.find((row) => row.scenario === HELLO)?.measurement.requestsPerSecond;
  const header = ['scenario', 'database', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs hello', 'requests', 'server CPU', 'db CPU', 'bench CPU', 'others', 'target'];
  const lines = rows.map((row) => [
    row.scenario,
    row.database,
    String(row.connections),
    whole(row.measurement.requestsPerSecond),
    ms(row.measurement.p50),
    ms(row.measurement.p99),
    hello ? `${((row.measurement.requestsPerSecond / hello) * 100).toFixed(1)} %` : '—',
    whole(row.measurement.requests),
    percent(row.cpu.server),
    row.database === 'postgres' ? percent(row.cpu.database) : '—',
    percent(row.cpu.loadGenerator),
    percent(row.cpu.others),
    verdict(row),
  ]);
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

/** Scenarios with a response that was not 2xx, or a connection error: the figures mean nothing. */
export function failures(rows: readonly Row[]): string[] {
  return rows
    .filter(({ measurement: m }) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0)
    .map(({ scenario, database, measurement: m }) =>
      `${scenario} on ${database}: ${m.non2xx} non-2xx responses, ${m.errors} errors, ${m.timeouts} timeouts (status codes ${JSON.stringify(m.statusCodes)})`,
    );
}
