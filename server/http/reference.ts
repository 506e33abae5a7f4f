import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { JsonObject } from '../../core/contract/documents.ts';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>API reference</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/start.js"></script>
</body>
</html>`;

// A file of its own, not an inline script, so the page works under the same CSP as the app.
const START = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true });`;

/**
 * The page's own policy: its scripts and styles from this origin (Swagger UI sets inline styles), images also as data:
 * URLs, calls to this origin only, and never inside another site's frame (clickjacking: decision 0175).
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
].join('; ');

/** The OpenAPI reference page at /api/docs, with Swagger UI served from node_modules (no CDN). */
export async function registerReference(app: FastifyInstance, contract: JsonObject): Promise<void> {
  const document = JSON.stringify(contract);
  const assets = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json').replace(/package\.json$/, '');
  app.get('/api/openapi.json', async (_request, reply) => reply.type('application/json').send(document));
  app.get('/api/docs', async (_request, reply) =>
    reply.header('content-security-policy', PAGE_POLICY).header('x-frame-options', 'DENY').type('text/html; charset=utf-8').send(PAGE),
  );
  app.get('/api/docs/start.js', async (_request, reply) => reply.type('text/javascript').send(START));
  await app.register(fastifyStatic, { root: assets, prefix: '/api/docs/assets/', decorateReply: false });
}
