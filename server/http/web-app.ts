/**
 * The built web app (dist/), delivered for a phone on a slow network (issue 17, docs/decisions/0200):
 * - the build writes brotli and gzip copies of every text file (scripts/precompress.ts); each request gets the
 *   best copy its Accept-Encoding allows, with Vary: Accept-Encoding so caches keep them apart;
 * - hashed files (assets/*-<hash>.*) never change under their name: cached for a year, immutable; the few others for
 *   a day;
 * - the page itself (/ and /index.html) is filled in once at start (its run-time configuration, decision 0045),
 *   compressed in memory, and revalidated on every visit by a content ETag, so a repeat visit costs a 304;
 * - the page carries what the host's brand paints before the app's code runs (decision 0286): the built
 *   first-paint.css and first-paint.js inline, with the live descriptor set's words for it; one page per brand.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Settings } from '../config.ts';
import { contentEtag, preferredEncoding, stillFresh } from './encoding.ts';
import { contentSecurityPolicy, webConfigMeta } from './security-headers.ts';
import { descriptorSetPath } from '../descriptors/live.ts';
import { firstPaintFor } from '../descriptors/first-paint.ts';
import type { FirstPaint, FirstPaintInput } from '../../core/first-paint.ts';
import { ROUTE_CHUNKS_FILE, type RouteChunks } from '../../core/route-chunks.ts';

import { IMMUTABLE } from './api-answers.ts';

/** Vite names every emitted asset `<name>-<8+ character hash>.<ext>` under assets/. */
const HASHED = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/;

interface AppPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/** The first paint's style and script as built (public/first-paint.*), when the build has them. */
export interface FirstPaintCode {
  style: string;
  script: string;
  /** The app's code per screen, which the script preloads for the screen it paints (core/route-chunks.ts). */
  chunks?: RouteChunks;
}

/**
 * A style without its comment lines and indentation: every page carries it. (The script comes minified by the build,
 * vite.config.ts.)
 */
function lean(style: string): string {
  const kept: string[] = [];
  let inComment = false;
  for (const raw of style.split('\n')) {
    const line = raw.trim();
    if (inComment) inComment = !line.includes('*/');
    else if (line.startsWith('/*')) inComment = !line.includes('*/');
    else if (line) kept.push(line);
  }
  return kept.join('\n');
}

export function readFirstPaintCode(webRoot: string): FirstPaintCode | undefined {
  const [style, script, chunks] = ['first-paint.css', 'first-paint.js', ROUTE_CHUNKS_FILE].map((name) => join(webRoot, name));
  if (!existsSync(style!) || !existsSync(script!)) return undefined;
  const code = { style: lean(readFileSync(style!, 'utf8')), script: readFileSync(script!, 'utf8') };
  return existsSync(chunks!) ? { ...code, chunks: JSON.parse(readFileSync(chunks!, 'utf8')) as RouteChunks } : code;
}

/** The Content-Security-Policy source that lets exactly this inline script run. */
export const scriptSource = (script: string): string => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** Text safe inside a <script> element: no '</script>' or '<!--' can end or change it. */
const inScript = (text: string) => text.replace(/</g, '\\u003c');

/** The first paint's parts of the page: its style in the head; its cover, words and script around the app's root. */
function withFirstPaint(html: string, code: FirstPaintCode, paint: FirstPaint): string {
  const cover = `<div id="first-paint" hidden aria-hidden="true" style="--fp-brand: ${paint.colour.replace(/[^#\w(),.% ]/g, '')}"></div>`;
  const words = `<script type="application/json" id="first-paint-data">${inScript(JSON.stringify(paint))}</script>`;
  return html
    .replace('</head>', `<style>${code.style}</style>\n  </head>`)
    .replace('<div id="root"></div>', `${cover}\n    <div id="root"></div>\n    ${words}\n    <script>${code.script}</script>`);
}

/**
 * index.html with the configuration filled in, in every encoding, and its ETag. With a published descriptor set live,
 * the page names it and has the browser fetch it beside the scripts (decision 0228).
 */
export function appPage(template: string, settings: Pick<Settings, 'webApiKey'>, descriptors = '', firstPaint?: { code: FirstPaintCode; paint: FirstPaint }): AppPage {
  const preload = descriptors ? `<link rel="preload" href="${descriptorSetPath(descriptors)}" as="fetch" crossorigin="anonymous" />\n  ` : '';
  const filled = template.replace(/<meta name="pos-config" content="[^"]*"\s*\/?>/, webConfigMeta(settings, descriptors)).replace('</head>', `${preload}</head>`);
  const html = Buffer.from(firstPaint ? withFirstPaint(filled, firstPaint.code, firstPaint.paint) : filled);
  return {
    identity: html,
    br: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(html, { level: 9 }),
    etag: contentEtag(html),
  };
}

function sendPage(request: FastifyRequest, reply: FastifyReply, page: AppPage, policy: string): FastifyReply {
  reply
    .header('content-security-policy', policy)
    .header('x-frame-options', 'SAMEORIGIN')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('etag', page.etag)
    .type('text/html; charset=utf-8');
  if (stillFresh(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.identity);
}

/** Files under other names (the favicon): a day, then fetched again. */
export const DAILY = 'public, max-age=86400';

function assetHeaders(response: { setHeader(name: string, value: string): unknown }, path: string): void {
  response.setHeader('vary', 'accept-encoding');
  response.setHeader('cache-control', HASHED.test(path) ? IMMUTABLE : DAILY);
}

/**
 * Serves the web app built into `webRoot` (which must hold index.html), naming the live descriptor set (`liveHash`);
 * `schemas`, the contract's components, give the first paint its forms' fields.
 */
export async function registerWebApp(app: FastifyInstance, settings: Settings, webRoot: string, liveHash: () => Promise<string>, schemas: FirstPaintInput['schemas']): Promise<void> {
  const code = readFirstPaintCode(webRoot);
  const policy = contentSecurityPolicy(signInOrigins(settings.identity, settings.publicUrl), settings.assetOrigin, code ? [scriptSource(code.script)] : []);
  const template = readFileSync(join(webRoot, 'index.html'), 'utf8');
  // The pages of the live set, one per brand; a publication makes the next ones.
  let pages = { hash: '', byBrand: new Map<string, AppPage>() };
  const livePage = async (hostName: string) => {
    const hash = await liveHash();
    if (pages.hash !== hash) pages = { hash, byBrand: new Map() };
    const paint = code ? firstPaintFor(hostName, schemas, code.chunks) : undefined;
    const key = paint?.brand ?? '';
    let page = pages.byBrand.get(key);
    if (!page) pages.byBrand.set(key, (page = appPage(template, settings, hash, code && paint ? { code, paint } : undefined)));
    return page;
  };
  for (const url of ['/', '/index.html']) app.get(url, async (request, reply) => sendPage(request, reply, await livePage(request.hostname), policy));
  await app.register(fastifyStatic, {
    root: webRoot,
    prefix: '/',
    wildcard: false,
    index: false,
    // The compressed copies are found beside their file, not served as routes of their own.
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    // A file is fetched whole or not at all: hashed ones never change, the few others are cached for a day. Validators
    // and ranges would only add bytes to every answer (on a slow network, each header line counts).
    etag: false,
    lastModified: false,
    acceptRanges: false,
    setHeaders: assetHeaders,
  });
}

/**
 * The origins the browser talks to for sign-in (discovery, token, end-session): the page's
 * Content-Security-Policy needs them in connect-src (and form-action). For the built-in provider, the
 * origin of PUBLIC_URL: 'self' on that host, but not on a brand's own host (docs/decisions/0180).
 */
export function signInOrigins(
  identity: { kind: 'builtin' } | { kind: 'external'; authority: string; knownAuthorities: string[]; passwordResetAuthority: string | undefined; metadataUrl: string },
  publicUrl: string,
): string[] {
  if (identity.kind === 'builtin') return [new URL(publicUrl).origin];
  const urls = [identity.authority, identity.metadataUrl, ...(identity.passwordResetAuthority ? [identity.passwordResetAuthority] : []), ...identity.knownAuthorities.map((host) => `https://${host}`)];
  return [...new Set(urls.map((url) => new URL(url).origin))];
}
