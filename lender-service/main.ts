/**
 * `npm run lender-service`: the lenders of screens/lenders/ over HTTP, apart from the portal (decision 0259,
 * lender-service/README.md). `npm start` in demo mode starts it beside the portal.
 */
import { loadConfig, LenderServiceConfigError, type LenderServiceConfig } from './config.ts';
import { startLenderService } from './app.ts';

let config: LenderServiceConfig;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof LenderServiceConfigError)) throw error;
  console.error(`Lender service configuration error — ${error.message}`);
  process.exit(2);
}

const service = await startLenderService(config);
const styles = (await service.app.inject({ url: '/health' })).json<{ lenders: Record<string, string> }>().lenders;
console.log(`  Lender service: ${service.origin} (${Object.entries(styles).map(([code, style]) => `${code} ${style}`).join(', ')})`);
if (!process.env.LENDER_CALLBACK_SECRET) console.log('  Lender service: no LENDER_CALLBACK_SECRET, so no portal can verify its callbacks');

const stop = () => void service.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
