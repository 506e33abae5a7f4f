/**
 * The server's entry: one process, or with WORKERS > 1 (PostgreSQL only) a primary that prepares the database once —
 * migrations, demo data, the identity provider's keys, the certificate — and then forks the workers, which share the
 * port (Node's cluster) and the database (decision 0202). Each worker runs the whole server, its job runner included:
 * jobs are claimed with SKIP LOCKED, so every message and lender call goes out once whatever the number of workers.
 */
import cluster from 'node:cluster';
import { loadSettings, SettingsError, type Settings } from './config.ts';
import { openDatabase } from './db/index.ts';
import { seedDemo, DEMO_ACCOUNTS } from './seed/demo.ts';
import { reopenAtLenders } from './domain/journey/reopen.ts';
import { buildServer } from './app.ts';
import { CertificateError, loadCertificate, type TlsMaterial } from './identity/certificate.ts';
import { createIdentity, type Identity } from './identity/index.ts';
import { forgetIdempotencyKeys } from './http/idempotency.ts';
import { forgetFinishedJobs } from './jobs/queue.ts';
import { enqueueDailyFundingReport } from './domain/funding/daily-report.ts';
import { jobRunnerOf } from './jobs/runner.ts';
import { DUE_NOTICES_EVERY_MS, sendDueNotices } from './domain/notices/due.ts';
import { expireOffers } from './domain/applications/expiry.ts';
import { lenderCatalogue } from './lenders/registry.ts';

function settingsOrExit(): Settings {
  try {
    return loadSettings();
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(`Configuration error — ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

function certificateOrExit(settings: Settings): TlsMaterial | undefined {
  try {
    return loadCertificate(settings);
  } catch (error) {
    if (error instanceof CertificateError) {
      console.error(`Configuration error — TLS_MODE: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

function printBanner(settings: Settings, tls: TlsMaterial | undefined, client: Identity['client'], databaseKind: string): void {
  const url = settings.publicUrl;
  const signIn = client.kind === 'builtin' ? `built-in OpenID provider, issuer ${client.authority}` : `external issuer ${client.authority} (client ${client.clientId})`;
  const transport =
    settings.tls.mode === 'proxy'
      ? `  Plain http:    http://localhost:${settings.port}/ (TLS_MODE=proxy: the proxy serves ${url})`
      : `  Plain http:    http://localhost:${settings.port}/ redirects to https (only /api/health answers over http)`;
  console.log(
    `\n  Portal:        ${url}/\n  API reference: ${url}/api/docs\n${transport}\n  Sign-in:       ${signIn}` +
      (tls ? `\n  Certificate:   ${tls.certFile}${settings.tls.mode === 'self-signed' ? ' (self-signed: trust it once, see README "Trusting the local certificate")' : ''}` : '') +
      `\n  Runtime:       Node.js ${process.versions.node}` +
      `\n  Database:      ${databaseKind === 'pglite' ? `PGlite in ${settings.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)'}\n  Mode:          ${settings.mode}` +
      (settings.workers > 1 ? `\n  Processes:     ${settings.workers} workers on one port` : '') +
      `\n  Messages:      ${[settings.notify.smtp ? 'e-mail by SMTP' : '', settings.notify.sms ? 'texts by the SMS gateway' : ''].filter(Boolean).join(', ') || 'kept in the outbox only'}` +
      (settings.mode === 'demo' ? `\n  Outbox:        ${url}/dev/outbox` : ''),
  );
  if (settings.mode === 'demo') {
    console.log('\n  Demo accounts (password demo-pass-1234):');
    for (const account of DEMO_ACCOUNTS) console.log(`    ${account.email.padEnd(26)} ${account.description}`);
    console.log('');
  }
}

/** Everything done once per start, before any process serves: migrations, demo data, the provider's keys. */
async function prepare(settings: Settings) {
  const database = await openDatabase(settings);
  if (settings.mode === 'demo') await seedDemo(database.db, settings);
  const identity = await createIdentity(settings, database);
  return { database, identity };
}

/** One serving process. `prepared` is set when this process prepared the database itself (a single process). */
async function serve(settings: Settings, prepared?: Awaited<ReturnType<typeof prepare>>): Promise<void> {
  const tls = certificateOrExit(settings);
  const { database, identity } = prepared ?? { database: await openDatabase(settings), identity: undefined };
  const id = identity ?? (await createIdentity(settings, database));
  const app = await buildServer({ settings, database, verifiers: id.verifiers, identity: id, https: tls });
  // Offers that expired untaken (decision 0233), then adverse-action notices that fall due while no offer is taken
  // (decision 0222), then Idempotency-Keys past their day and jobs done a week ago, then the business morning's funding
  // report (decision 0278); several servers may sweep at once.
  const sweep = () =>
    void expireOffers(database.db)
      .then(() => sendDueNotices(database.db, lenderCatalogue(settings)))
      .then(() => forgetIdempotencyKeys(database.db))
      .then(() => forgetFinishedJobs(database.db))
      .then(() => enqueueDailyFundingReport(database.db))
      .catch((error: unknown) => app.log.error({ err: error }, 'the sweep of expired offers and due notices failed'));
  const sweeps = setInterval(sweep, DUE_NOTICES_EVERY_MS);
  sweeps.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    id.close();
    clearInterval(sweeps);
    await app.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: settings.host, port: settings.port });
  // Jobs that fall due (retries, polls) and jobs other processes enqueued: messages, lender callbacks and orders.
  jobRunnerOf(database.db)?.start();
  sweep();
  // One process opens the demo's open applications at the lender service again: the one that prepared the data, or
  // the first worker of several (the primary that prepared it serves nothing).
  if (prepared || cluster.worker?.id === 1) void reopenAtLenders(database.db, settings, app.log);
  if (cluster.isPrimary) printBanner(settings, tls, id.client, database.kind);
}

/** The primary of several workers: prepares once, forks, replaces a worker that dies, and stops them all together. */
async function supervise(settings: Settings): Promise<void> {
  const tls = certificateOrExit(settings);
  const { database, identity } = await prepare(settings);
  const client = identity.client;
  identity.close();
  await database.close();

  let stopping = false;
  const fork = () => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker!.once('exit', () => --left === 0 && process.exit(0));
      worker!.process.kill(signal);
    }
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === settings.workers) printBanner(settings, tls, client, database.kind);
  });
  for (let i = 0; i < settings.workers; i++) fork();
}

const settings = settingsOrExit();
if (settings.workers > 1 && cluster.isPrimary) await supervise(settings);
else if (cluster.isWorker) await serve(settings);
else await serve(settings, await prepare(settings));
