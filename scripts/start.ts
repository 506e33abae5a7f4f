/**
 * `npm start`: builds the web app when the build is missing or older than its sources, then starts
 * the whole product (web app, API, identity provider, sandbox lenders, outbox) in one process.
 */
import { ensureWebBuild } from './web-build.ts';

ensureWebBuild();
await import('../server/main.ts');
