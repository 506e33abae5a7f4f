import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { callPort, freePort, openStream, overNetwork, type NetworkAnswer, type NetworkCall } from '../support/node-http.ts';
import { signedBy, startReceiver, type Receiver } from '../support/receiver.ts';
import { DEMO } from './examples.ts';
import { Browser, signInWithPassword } from './identity-flow.ts';
import { freshPhone } from './journey-fixtures.ts';

/**
 * The portal on several nodes (issue 39, item 5): two portal processes on their own ports, standing in for machines,
 * behind HAProxy (deploy/haproxy.cfg, the operators' recipe) over one PostgreSQL. Signing in through one node and
 * working through another; a studio publication on one live on the other within seconds; each webhook and text sent
 * once; the live stream of one node telling what happened on the other; one node killed mid-traffic, losing no
 * acknowledged write while the balancer moves on. PGlite belongs to one process, so this runs in the PostgreSQL pass
 * of the API suite (.ci/run), which installs HAProxy too.
 */

const base = process.env.DATABASE_URL;
const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((path) => existsSync(path));
const PASSWORD = 'demo-pass-1234';
const OFFICE_ADMIN = 'office.admin@demo.test';
const WEB_KEY = 'demo-web-key';
/** A name from a number, in letters only, as names are: 0 → 'a', 27 → 'bb'. */
const named = (prefix: string, n: number) => `${prefix}${String.fromCharCode(97 + (n % 26)).repeat(1 + Math.floor(n / 26))}`;

interface Node {
  name: string;
  port: number;
  process: ChildProcess;
  output: string;
}

describe.skipIf(!base)('the portal on two nodes behind HAProxy, over one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-nodes-'));
  const database = `pos_nodes_${process.pid}`;
  const url = base ? Object.assign(new URL(base), { pathname: `/${database}` }).toString() : '';
  const admin = () => new pg.Client({ connectionString: base });
  const nodes: Node[] = [];
  let balancer: ChildProcess | undefined;
  let balancerPort = 0;
  let balancerOutput = '';
  let gateway: Server | undefined;
  const texts: { to: string; text: string }[] = [];
  let receiver: Receiver;
  let pool: pg.Pool;
  let smsUrl = '';

  const until = async (done: () => boolean | Promise<boolean>, ms: number, what: string) => {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${logs()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const logs = () => [...nodes.map((n) => `--- node ${n.name} ---\n${n.output.slice(-2000)}`), `--- haproxy ---\n${balancerOutput.slice(-1000)}`].join('\n');

  async function startNode(name: string, smsUrl: string): Promise<Node> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env, APP_MODE: 'demo', DATA_DIR: dataDir, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', TLS_MODE: 'proxy',
        PUBLIC_URL: 'https://localhost:3000', LOG_LEVEL: 'warn', LENDERS_IN_PROCESS: 'true', SMS_GATEWAY_URL: smsUrl, WORKERS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node: Node = { name, port, process: child, output: '' };
    child.stdout!.on('data', (chunk) => (node.output += chunk));
    child.stderr!.on('data', (chunk) => (node.output += chunk));
    nodes.push(node);
    await until(() => node.output.includes('Demo accounts') || child.exitCode !== null, 120_000, `node ${name} starts`);
    if (child.exitCode !== null) throw new Error(`node ${name} exited ${child.exitCode}\n${logs()}`);
    return node;
  }

  const api = (port: number, call: NetworkCall, token?: string): Promise<NetworkAnswer> =>
    callPort(port, { ...call, headers: { host: 'localhost:3000', 'x-api-key': WEB_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}), ...call.headers } });
  /** Signs in on the provider's pages of one node and redeems the code at the other's token endpoint. */
  const signIn = async (email: string, ports: { pages: number; token: number }): Promise<string> => {
    const browser = new Browser(overNetwork((call) => (call.url.startsWith('/oidc/token') ? ports.token : ports.pages)));
    return (await signInWithPassword(browser, email, PASSWORD)).access_token;
  };

  beforeAll(async () => {
    if (!HAPROXY) throw new Error('HAProxy is needed for this test: apt-get install haproxy (.ci/run installs it).');
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.query(`create database ${database}`);
    await client.end();
    pool = new pg.Pool({ connectionString: url, max: 2 });

    gateway = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        texts.push(JSON.parse(body) as { to: string; text: string });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => gateway!.listen(0, '127.0.0.1', resolve));
    smsUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}/sms`;
    receiver = await startReceiver();

    // The first node migrates and seeds the database; the second finds both done.
    await startNode('a', smsUrl);
    await startNode('b', smsUrl);
    balancerPort = await freePort();
    balancer = spawn(HAPROXY, ['-f', join(ROOT, 'deploy/haproxy.cfg'), '-db'], {
      env: { ...process.env, LB_BIND: `127.0.0.1:${balancerPort}`, NODE_A: `127.0.0.1:${nodes[0]!.port}`, NODE_B: `127.0.0.1:${nodes[1]!.port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    balancer.stdout!.on('data', (chunk) => (balancerOutput += chunk));
    balancer.stderr!.on('data', (chunk) => (balancerOutput += chunk));
    await until(async () => (await api(balancerPort, { method: 'GET', url: '/api/health' }).catch(() => undefined))?.statusCode === 200, 20_000, 'HAProxy serves');
  }, 300_000);

  afterAll(async () => {
    balancer?.kill('SIGTERM');
    const running = nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null);
    for (const node of running) node.process.kill('SIGTERM');
    await Promise.all(running.map((node) => new Promise((resolve) => node.process.once('exit', resolve))));
    gateway?.close();
    await receiver?.close();
    await pool?.end();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('signs in through one node and works through the other', async () => {
    const [a, b] = nodes;
    const token = await signIn(OFFICE_ADMIN, { pages: a!.port, token: b!.port });
    const office = await api(b!.port, { method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}` }, token);
    expect(office.statusCode, office.body).toBe(200);
    // And through the balancer, which sends the calls to both in turn.
    for (let i = 0; i < 4; i++) expect((await api(balancerPort, { method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}` }, token)).statusCode).toBe(200);
  }, 60_000);

  it('makes a studio publication on one node live on the other within seconds', async () => {
    const [a, b] = nodes;
    const token = await signIn(PRODUCT_OWNER, { pages: a!.port, token: a!.port });
    const files = (await api(a!.port, { method: 'GET', url: '/api/Studio/GetFiles' }, token)).json() as { files: { path: string; doc: Record<string, unknown> }[] };
    const page = files.files.find((f) => f.path === 'pages/app-auth-id.json')!.doc;
    const published = await api(a!.port, { method: 'POST', url: '/api/Studio/Publish', payload: { files: { 'pages/app-auth-id.json': { ...page, title: 'Welcome back, from node a' } }, note: 'Two nodes', publishOutOfDate: true }, headers: { 'idempotency-key': randomUUID() } }, token);
    expect(published.statusCode, published.body).toBe(200);
    const { hash } = published.json() as { hash: string };
    const started = Date.now();
    await until(async () => (await api(b!.port, { method: 'GET', url: '/api/health' })).headers['x-descriptor-set'] === hash, 10_000, 'node b serves the publication');
    console.log(`A publication on node a was live on node b after ${Date.now() - started} ms`);
  }, 60_000);

  it("sends each text and each webhook once, whichever node took the call, and one node's stream tells what happened on the other", async () => {
    const [a, b] = nodes;
    const token = await signIn(OFFICE_ADMIN, { pages: b!.port, token: b!.port });
    const added = await api(balancerPort, { method: 'PUT', url: '/api/Webhooks/AddEndpoint', payload: { officeId: DEMO.brightSmiles, url: receiver.url, eventTypes: ['application.created', 'application.link_sent'] } }, token);
    expect(added.statusCode, added.body).toBe(200);
    const { secret } = added.json() as { secret: string };

    // Node b's stream, open while node a records the office's new application.
    const stream = openStream(b!.port, { url: `/api/Events/Stream/${DEMO.brightSmiles}?wait=20`, headers: { authorization: `Bearer ${token}`, 'x-api-key': WEB_KEY, host: 'localhost:3000' } });
    expect(await stream.status).toBe(200);
    const phones = Array.from({ length: 10 }, () => freshPhone());
    // The gateway is told numbers in E.164.
    const e164 = phones.map((phone) => `+1${phone.replace(/\D/g, '')}`);
    const sent: number[] = [];
    for (const [i, phone] of phones.entries()) {
      const answer = await api(i === 0 ? a!.port : balancerPort, { method: 'POST', url: '/api/App/SendApp', payload: { officeId: DEMO.brightSmiles, firstName: 'Nola', lastName: named('Nodes', i), mobilePhone: phone, amount: 2000 }, headers: { 'idempotency-key': randomUUID() } }, token);
      expect(answer.statusCode, answer.body).toBe(200);
      sent.push((answer.json() as { appId: number }).appId);
    }
    await until(() => stream.text().includes(`"appId":${sent[0]}`), 15_000, "node b's stream tells of node a's application");
    stream.close();

    await until(() => texts.filter((t) => e164.includes(t.to)).length >= phones.length && receiver.received.length >= 2 * phones.length, 30_000, 'the texts and webhooks arrive');
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // anything sent twice would be here by now
    const ours = texts.filter((t) => e164.includes(t.to));
    expect(ours.map((t) => t.to).sort()).toEqual([...e164].sort());
    const events = receiver.received.map((post) => JSON.parse(post.body) as { id: string; type: string; appId: number });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.filter((e) => sent.includes(e.appId))).toHaveLength(2 * phones.length);
    expect(receiver.received.every((post) => signedBy(secret, post))).toBe(true);
    const served = await pool.query<{ n: string }>(`select count(*) as n from applications where last_name like 'Nodes%'`);
    expect(Number(served.rows[0]!.n)).toBe(phones.length);
  }, 120_000);

  it('runs again a call whose node died before its commit: its Idempotency-Key went with its transaction', async () => {
    const c = await startNode('c', smsUrl);
    const token = await signIn(OFFICE_ADMIN, { pages: c.port, token: c.port });
    const call = { method: 'POST', url: '/api/App/SendApp', payload: { officeId: DEMO.brightSmiles, firstName: 'Cut', lastName: 'Offmidcall', mobilePhone: freshPhone(), amount: 1200 }, headers: { 'idempotency-key': randomUUID() } } as const;
    // The messages' table is held, so node c's call stops inside its transaction, after its application and its key.
    const holder = await pool.connect();
    try {
      await holder.query('begin; lock table outbox in share mode');
      void api(c.port, call, token).catch(() => undefined);
      await until(async () => (await pool.query(`select 1 from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`, [database])).rows.length > 0, 20_000, "node c's call waits inside its transaction");
      c.process.kill('SIGKILL');
      await new Promise((resolve) => c.process.once('exit', resolve));
    } finally {
      await holder.query('commit');
      holder.release();
    }
    // The same call, the same key, through another node: it runs, once.
    const again = await api(nodes[1]!.port, call, token);
    expect(again.statusCode, again.body).toBe(200);
    const rows = await pool.query(`select id from applications where last_name = 'Offmidcall'`);
    expect(rows.rows.map((row: { id: string }) => Number(row.id))).toEqual([(again.json() as { appId: number }).appId]);
  }, 120_000);

  it('loses no acknowledged write when a node is killed mid-traffic, and the balancer moves on', async () => {
    const [a] = nodes;
    const token = await signIn(OFFICE_ADMIN, { pages: balancerPort, token: balancerPort });
    const intents = Array.from({ length: 40 }, (_, i) => ({ lastName: named('Killed', i), phone: freshPhone(), key: randomUUID(), appId: undefined as number | undefined, tries: 0 }));
    // A careful client: each intent has its key, and a call that did not answer is sent again with it.
    const write = async (intent: (typeof intents)[number]) => {
      for (; intent.tries < 20 && intent.appId === undefined; intent.tries++) {
        const answer = await api(balancerPort, { method: 'POST', url: '/api/App/SendApp', payload: { officeId: DEMO.brightSmiles, firstName: 'Kim', lastName: intent.lastName, mobilePhone: intent.phone, amount: 1500 }, headers: { 'idempotency-key': intent.key } }, token).catch(() => undefined);
        if (answer?.statusCode === 200) intent.appId = (answer.json() as { appId: number }).appId;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    // Four writers at once; node a is killed while their calls are under way, once ten writes are acknowledged.
    let next = 0;
    let killedAfter = -1;
    const writer = async () => {
      while (next < intents.length) {
        const intent = intents[next++]!;
        await write(intent);
        if (killedAfter < 0 && intents.filter((i) => i.appId !== undefined).length >= 10) {
          killedAfter = next;
          a!.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    expect(killedAfter).toBeGreaterThan(0);
    const acknowledged = intents.filter((intent) => intent.appId !== undefined);
    const rows = await pool.query<{ id: string; last_name: string }>(`select id, last_name from applications where last_name like 'Killed%'`);
    const stored = new Map(rows.rows.map((row) => [Number(row.id), row.last_name]));
    // Every write the client was told was done is in the database, once.
    for (const intent of acknowledged) expect(stored.get(intent.appId!), intent.lastName).toBe(intent.lastName);
    expect(rows.rows.length).toBe(new Set(rows.rows.map((row) => row.last_name)).size);
    // Every intent was acknowledged in the end, those whose call the killed node had under way too: SendApp keeps its
    // Idempotency-Key in its transaction (x-atomic), so a call cut off before its commit left no key behind, and its
    // repeat ran on the other node.
    expect(intents.filter((intent) => intent.appId === undefined).map((intent) => intent.lastName), logs()).toEqual([]);
    console.log(`Killed node a with ${killedAfter} intents begun: ${acknowledged.length} of ${intents.length} acknowledged, ${intents.reduce((n, i) => n + i.tries, 0) - acknowledged.length} calls sent again`);
  }, 180_000);
});
