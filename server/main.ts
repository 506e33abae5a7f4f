import { loadSettings, SettingsError, type Settings } from './config.ts';
import { openDatabase } from './db/index.ts';
import { seedDemo, DEMO_ACCOUNTS } from './db/seed/demo.ts';
import { buildServer } from './app.ts';
import { createTokenVerifiers, remoteStaffTokens } from './identity/tokens.ts';

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

const settings = settingsOrExit();
const database = await openDatabase(settings);
if (settings.mode === 'demo') await seedDemo(database.db, settings);
const app = await buildServer({
  settings,
  database,
  verifiers: createTokenVerifiers(settings, remoteStaffTokens(settings)),
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  await database.close();
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ host: settings.host, port: settings.port });
const url = address.replace('127.0.0.1', 'localhost');
console.log(`\n  Portal:        ${url}/\n  API reference: ${url}/api/docs\n  Database:      ${database.kind === 'pglite' ? `PGlite in ${settings.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)'}\n  Mode:          ${settings.mode}`);
if (settings.mode === 'demo') {
  console.log('\n  Demo accounts (password demo-pass-1234):');
  for (const account of DEMO_ACCOUNTS) console.log(`    ${account.email.padEnd(26)} ${account.description}`);
  console.log('');
}
