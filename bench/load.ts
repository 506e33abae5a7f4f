import autocannon from 'autocannon';
import { percentile } from './stats.ts';

/** One HTTP call repeated under load. */
export interface Scenario {
  name: string;
  url: string;
  method: 'GET' | 'PUT' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface Measurement {
  /** Completed requests per second (autocannon's mean of per-second samples). */
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds, from every response's own time (0.01 ms resolution). */
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  connections: number;
  /** Run for this many seconds … */
  seconds?: number;
  /** … or until this many requests are done (warm-up). */
  amount?: number;
}

/** Extra seconds before a run that should have ended is stopped by force. */
const GRACE_SECONDS = 30;

let current: autocannon.Instance | undefined;

/** Stops the load that is running, if any (Ctrl-C). */
export function stopLoad(): void {
  current?.stop();
}

/**
 * Drives `scenario` with autocannon in this process (no worker threads: the server under test is
 * another process, and the machine has few cores), one request in flight per connection.
 */
export function runLoad(scenario: Scenario, options: LoadOptions): Promise<Measurement> {
  const latencies: number[] = [];
  return new Promise<Measurement>((resolve, reject) => {
    const limitSeconds = (options.seconds ?? 60) + GRACE_SECONDS;
    let guard: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url: scenario.url,
        method: scenario.method,
        headers: scenario.headers,
        ...(scenario.body === undefined ? {} : { body: scenario.body }),
        connections: options.connections,
        pipelining: 1,
        timeout: 10,
        ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
      },
      (error, result) => {
        clearTimeout(guard);
        current = undefined;
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count ?? 0;
        resolve({
          requestsPerSecond: result.requests.average,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          requests: result.requests.total,
          seconds: result.duration,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes,
        });
      },
    );
    current = instance;
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
    });
    guard = setTimeout(() => instance.stop(), limitSeconds * 1000);
  });
}
