import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { join } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';
import { loadSettings, SettingsError, type Settings } from '../server/config.ts';

/**
 * `npm start` in demo mode starts the lender service (decision 0259) beside the portal, as a child process that ends
 * with it. It is given what a lender is given when it is set up: the portal's callback secret (each lender's key is
 * derived from it), an API key for the callback route, and the portal's certificate to trust when it posts there.
 */

function certificateOf(settings: Settings): string | null {
  if (settings.tls.mode === 'self-signed') return join(settings.dataDir, 'tls', 'localhost.crt');
  return settings.tls.mode === 'files' ? settings.tls.certFile : null;
}

export function startLenderServiceBeside(): void {
  // Several workers (WORKERS > 1) each run this script again: the primary started the service, and their environment
  // (LENDER_SERVICE_BESIDE) is its.
  if (cluster.isWorker) return;
  let settings: Settings;
  try {
    settings = loadSettings();
  } catch (error) {
    // The portal says what is wrong with its configuration when it starts, and stops.
    if (error instanceof SettingsError) return;
    throw error;
  }
  if (settings.mode !== 'demo') return;
  const ca = certificateOf(settings);
  // The portal, started next in this process, opens its open applications at the new, empty service (decision 0261).
  process.env.LENDER_SERVICE_BESIDE = 'true';
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'lender-service', 'main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      LENDER_CALLBACK_SECRET: settings.lenderCallbackSecret.toString('base64'),
      LENDER_SERVICE_PORTAL_API_KEY: settings.webApiKey,
      ...(ca ? { LENDER_SERVICE_CALLBACK_CA: ca } : {}),
    },
  });
  // A lender service that cannot start (its port taken) leaves the portal running; its lenders answer that they are
  // unavailable until one listens there.
  child.on('exit', (code, signal) => {
    if (code) console.error(`  Lender service ended (exit ${code}); the portal runs on without it.`);
    else if (signal && signal !== 'SIGTERM') console.error(`  Lender service ended (${signal}).`);
  });
  process.on('exit', () => child.kill());
}
