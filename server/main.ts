import { loadSettings, SettingsError, type Settings } from './config.ts';
import { openDatabase } from './db/index.ts';
import { seedDemo, DEMO_ACCOUNTS } from './db/seed/demo.ts';
import { buildServer } from './app.ts';
import { CertificateError, loadCertificate, type TlsMaterial } from './identity/certificate.ts';
import { createIdentity } from './identity/index.ts';
import { outboxDispatcher } from './notify/outbox.ts';

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

function certificateOrExit(): TlsMaterial | undefined {
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

const settings = settingsOrExit();
const tls = certificateOrExit();
const database = await openDatabase(settings);
if (settings.mode === 'demo') await seedDemo(database.db, settings);
const identity = await createIdentity(settings, database);
const app = await buildServer({ settings, database, verifiers: identity.verifiers, identity, https: tls });
// Delivers queued e-mail and texts when SMTP_URL / SMS_GATEWAY_URL are set; a no-op otherwise.
const dispatcher = outboxDispatcher(database.db, settings, app.log);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  identity.close();
  await dispatcher.stop();
  await app.close();
  await database.close();
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ host: settings.host, port: settings.port });
dispatcher.start();
const url = settings.publicUrl;
const signIn =
  identity.client.kind === 'builtin'
    ? `built-in OpenID provider, issuer ${identity.client.authority}`
    : `external issuer ${identity.client.authority} (client ${identity.client.clientId})`;
const transport =
  settings.tls.mode === 'proxy'
    ? `  Plain http:    http://localhost:${settings.port}/ (TLS_MODE=proxy: the proxy serves ${url})`
    : `  Plain http:    http://localhost:${settings.port}/ redirects to https (only /api/health answers over http)`;
console.log(
  `\n  Portal:        ${url}/\n  API reference: ${url}/api/docs\n${transport}\n  Sign-in:       ${signIn}` +
    (tls ? `\n  Certificate:   ${tls.certFile}${settings.tls.mode === 'self-signed' ? ' (self-signed: trust it once, see README "Trusting the local certificate")' : ''}` : '') +
    `\n  Database:      ${database.kind === 'pglite' ? `PGlite in ${settings.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)'}\n  Mode:          ${settings.mode}` +
    `\n  Messages:      ${[settings.notify.smtp ? 'e-mail by SMTP' : '', settings.notify.sms ? 'texts by the SMS gateway' : ''].filter(Boolean).join(', ') || 'kept in the outbox only'}` +
    (settings.mode === 'demo' ? `\n  Outbox:        ${url}/dev/outbox` : ''),
);
if (settings.mode === 'demo') {
  console.log('\n  Demo accounts (password demo-pass-1234):');
  for (const account of DEMO_ACCOUNTS) console.log(`    ${account.email.padEnd(26)} ${account.description}`);
  console.log('');
}
