import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ROOT } from '../../core/contract/documents.ts';
import { openPostgres } from '../../server/db/index.ts';

const TEXTS = 300;
const WORKERS = 3;
const GATEWAY_MS = 25;
const base = process.env.DATABASE_URL;

/**
 * Several server processes on one PostgreSQL (issue 17, decision 0202). PGlite belongs to one process, so this runs in
 * the PostgreSQL pass of the API suite (.ci/run), on a database of its own.
 */
describe.skipIf(!base)('several server processes on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-workers-'));
  const database = `pos_workers_${process.pid}`;
  const url = base ? Object.assign(new URL(base), { pathname: `/${database}` }).toString() : '';
  const admin = () => new pg.Client({ connectionString: base });
  let gateway: Server | undefined;
  afterAll(async () => {
    gateway?.close();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from every worker and sends each queued text once, though the workers dispatch at the same time', async () => {
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.query(`create database ${database}`);
    await client.end();
    // The texts are queued before the workers start, as sendSms queues them (a row and its delivery job): each worker's
    // job runner takes what is due as it comes up.
    const db = await openPostgres(url);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(
      `with queued as (insert into outbox (channel, recipient, body) select 'Sms', '(737) 555-0100', 'workers test ' || n from generate_series(1, ${TEXTS}) n returning id)
       insert into jobs (queue, key, payload, max_attempts) select 'message', id::text, jsonb_build_object('outboxId', id), 5 from queued`,
    );
    await db.close();

    const received: { text: string; port: number }[] = [];
    gateway = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ text: (JSON.parse(body) as { text: string }).text, port: request.socket.remotePort! });
        setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), GATEWAY_MS);
      });
    });
    await new Promise<void>((resolve) => gateway!.listen(0, '127.0.0.1', resolve));
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}/sms`;

    const port = 3800 + Math.floor(Math.random() * 400);
    const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url, WORKERS: String(WORKERS), PORT: String(port), HOST: '127.0.0.1', TLS_MODE: 'proxy', PUBLIC_URL: `https://localhost:${port}`, APP_MODE: 'demo', LOG_LEVEL: 'warn', SMS_GATEWAY_URL: gatewayUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      const until = async (done: () => boolean | Promise<boolean>, ms: number) => {
        const deadline = Date.now() + ms;
        while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      };
      await until(() => output.includes('Demo accounts') || server.exitCode !== null, 120_000);
      expect(output).toContain(`Processes:     ${WORKERS} workers on one port`);
      const workers = execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.pid)], { encoding: 'utf8' }).trim().split(/\s+/);
      expect(workers).toHaveLength(WORKERS);
      for (let i = 0; i < 6; i++) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

      const ours = () => received.filter((r) => r.text.startsWith('workers test '));
      await until(() => ours().length >= TEXTS, 60_000);
      await new Promise((r) => setTimeout(r, 1_000));
      const texts = ours().map((r) => r.text);
      expect(texts).toHaveLength(TEXTS);
      expect(new Set(texts).size).toBe(TEXTS);
      // Each worker talks to the gateway over its own connection: more than one port means more than one sender.
      expect(new Set(ours().map((r) => r.port)).size).toBeGreaterThan(1);
      const rows = await pool.query<{ status: string; attempts: number; n: string }>(
        `select status, attempts, count(*) n from outbox where body like 'workers test %' group by status, attempts`,
      );
      expect(rows.rows.map((r) => [r.status, r.attempts, Number(r.n)])).toEqual([['Sent', 1, TEXTS]]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- server output ---\n${output.slice(-3000)}`);
    } finally {
      server.kill('SIGTERM');
      await exited;
      await pool.end();
    }
    expect(server.exitCode).toBe(0);
  }, 240_000);
});
