/**
 * `npm start`: builds the web app when the build is missing or older than its sources, then starts
 * the whole product (web app, API, identity provider, sandbox lenders, outbox) in one process, and in demo mode the
 * lender service beside it (decision 0259).
 */
import { startLenderServiceBeside } from './lender-service-beside.ts';
import { requireSupportedNode } from './runtime.ts';
import { ensureWebBuild } from './web-build.ts';

requireSupportedNode();
ensureWebBuild();
startLenderServiceBeside();
await import('../server/main.ts');
