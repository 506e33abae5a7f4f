import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time from /proc (Linux), to tell the server's own work from the database's, the load
 * generator's and whatever else runs on the machine. Elsewhere the readings are undefined and the
 * table shows a dash.
 */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  name: string;
  parent: number;
  /** User + system CPU seconds so far. */
  seconds: number;
}

function processTimes(pid: number | string): ProcessTimes | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may hold spaces; utime and stime are fields 14 and 15.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process and its children: a server's cluster workers are its children (decision 0202). */
function serverSeconds(pid: number): number | undefined {
  const own = processTimes(pid);
  if (!own) return undefined;
  let total = own.seconds;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = processTimes(entry);
    if (times?.parent === pid) total += times.seconds;
  }
  return total;
}

/** CPU seconds of every local PostgreSQL process (backends, checkpointer, autovacuum …). */
function postgresSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = processTimes(entry);
    if (times?.name === 'postgres') total += times.seconds;
  }
  return total;
}

/** Busy and total CPU seconds of the whole machine so far (all cores). */
function machineSeconds(): { busy: number; total: number } | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

export interface CpuUse {
  /** The server process, in % of one core. */
  server: number | undefined;
  /** Local PostgreSQL processes, in % of one core (0 for PGlite, which runs inside the server). */
  database: number | undefined;
  /** This process (the load generator), in % of one core. */
  loadGenerator: number;
  /** Everything else on the machine, in % of all its cores: should be near 0. */
  others: number | undefined;
}

/** Starts a CPU reading for the server `serverPid`; calling the result ends it. */
export function cpuMeter(serverPid: number | undefined, countPostgres: boolean): () => CpuUse {
  const linux = existsSync('/proc/stat');
  const started = performance.now();
  const server = serverPid === undefined ? undefined : serverSeconds(serverPid);
  const database = linux && countPostgres ? postgresSeconds() : 0;
  const own = process.cpuUsage();
  const machine = machineSeconds();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const serverUsed = server === undefined || serverPid === undefined ? undefined : (serverSeconds(serverPid) ?? server) - server;
    const databaseUsed = linux && countPostgres ? postgresSeconds() - database : 0;
    const ownNow = process.cpuUsage(own);
    const ownUsed = (ownNow.user + ownNow.system) / 1e6;
    const machineNow = machineSeconds();
    let others: number | undefined;
    if (machine && machineNow && serverUsed !== undefined) {
      const cores = (machineNow.total - machine.total) / seconds;
      const rest = machineNow.busy - machine.busy - serverUsed - databaseUsed - ownUsed;
      others = Math.max(0, (rest / seconds / cores) * 100);
    }
    return {
      server: serverUsed === undefined ? undefined : (serverUsed / seconds) * 100,
      database: linux ? (databaseUsed / seconds) * 100 : undefined,
      loadGenerator: (ownUsed / seconds) * 100,
      others,
    };
  };
}

/** How busy the machine is (in % of all cores) over the next `ms`. */
export async function machineBusyOver(ms: number): Promise<number | undefined> {
  const before = machineSeconds();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineSeconds();
  if (!before || !after || after.total === before.total) return undefined;
  return ((after.busy - before.busy) / (after.total - before.total)) * 100;
}
