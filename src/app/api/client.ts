/**
 * The typed API client: openapi-fetch over codegen/generated/api.ts with the middleware of ./pipeline.ts — bearer
 * token from the AuthPort, X-Api-Key on (key) calls (the key the server injected, ../config.ts), X-Borrower-Token
 * from the session, Idempotency-Key on every write, one silent renewal on 401, retries with back-off — and
 * problem details turned into ApiError. `callOperation` calls by operationId for the engine's descriptors.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../../codegen/generated/api.ts';
import { operationIndex, type OperationId } from '../../../codegen/generated/operation-index.ts';
import messages from '../../../schemas/messages.json';
import { authPort } from '../auth-port.ts';
import { session } from '../session/store.ts';
import { webConfig } from '../config.ts';
import { shownSet } from '../live-descriptors.ts';
import { appMode } from '../mode.ts';
import { progress } from '../ui/progress.ts';
import type { CallInput } from '../../engine/services.ts';
import { createApiFetch, headerMiddleware, operationMatcher, type OperationFacts } from './pipeline.ts';
import { takeFirstRead } from './first-read.ts';
import { ApiError, isProblem } from './problem.ts';
import { currentLanguage, tr } from '../../../core/current-language.ts';
import { fill } from '../../../core/i18n.ts';
import { ACCESS_HEADER, accessChanges, decodeAccess } from '../../../core/access-header.ts';
import { DESCRIPTOR_SET_HEADER } from '../../../core/descriptor-set-header.ts';

const byTemplate = new Map<string, OperationFacts>(Object.values(operationIndex).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
const match = operationMatcher(operationIndex);

export const apiClient = createClient<paths>({
  baseUrl: '',
  fetch: createApiFetch({
    fetch: (request) => takeFirstRead(request) ?? globalThis.fetch(request),
    acquireToken: (options) => authPort().acquireToken(options),
    // A request outside the contract is taken for a write: it is never repeated unasked.
    write: (request) => match(request.method, new URL(request.url).pathname)?.write ?? true,
    onActivity: (delta) => (delta > 0 ? progress.start('read') : progress.end('read')),
  }),
});

// Every answer names the live descriptor set; a new one is taken on the next navigation (decision 0228). A staff
// answer says what the caller may do: the session follows a change made by someone else (decision 0257).
apiClient.use({
  onResponse({ response }) {
    const live = response.headers.get(DESCRIPTOR_SET_HEADER);
    if (live !== null) appMode.heardLiveSet(live);
    const access = decodeAccess(response.headers.get(ACCESS_HEADER));
    const held = session.get();
    const changes = access && held.authenticated && held.userInfoLoaded ? accessChanges({ ...held, officeId: held.selectedOfficeId ?? held.officeId }, access) : undefined;
    if (changes) session.update(changes);
    return response;
  },
});

apiClient.use(
  headerMiddleware({
    operationFor: (method, schemaPath) => byTemplate.get(`${method.toUpperCase()} ${schemaPath}`),
    apiKey: () => webConfig().apiKey,
    borrowerToken: () => session.get().borrowerToken,
    language: () => currentLanguage().locale,
    shownSet,
  }),
);

/** spec §8 'The parameter X must be defined.' before a call with a missing path parameter leaves the browser. */
function checkParams(id: string, path: string, params: Record<string, unknown> | undefined): void {
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const value = params?.[name!];
    if (value === undefined || value === null || value === '') {
      throw new ApiError(400, undefined, id, fill(tr(messages.messages.parameterUndefined), { name: name! }));
    }
  }
}

async function send(id: string, input: CallInput, parseAs: 'json' | 'blob') {
  const op = operationIndex[id as OperationId];
  if (!op) throw new Error(`unknown operation ${id}`);
  checkParams(id, op.path, input.params);
  // A studio preview as a signed-in role answers samples: nothing leaves the browser (decision 0229).
  const sample = appMode.answerOf(id);
  if (sample) return { data: parseAs === 'blob' ? new Blob(['Sample file'], { type: 'text/plain' }) : sample.answer, response: new Response(null, { status: 200 }) };
  const init: Record<string, unknown> = { params: { path: input.params ?? {}, query: input.query ?? {} }, parseAs };
  if (op.body && input.body !== undefined) {
    // A multipart call's plain body becomes its file parts and JSON 'model' part (./multipart.ts).
    // (loaded on first use: the borrower's pages upload nothing and keep their JavaScript small, 0046).
    init.body =
      op.multipart && input.body && typeof input.body === 'object' && !(input.body instanceof FormData)
        ? (await import('./multipart.ts')).toMultipart(input.body as Record<string, unknown>)
        : input.body;
  }
  const request = apiClient.request as unknown as (method: string, url: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const result = await request(op.method, op.path, init);
  if (result.error !== undefined || !result.response.ok) {
    const problem = isProblem(result.error) ? result.error : undefined;
    throw new ApiError(result.response.status, problem, id);
  }
  return result;
}

/** Operations that only read: the engine lets an action's call of one share the page's query. */
export const readsOnly = (id: string): boolean => operationIndex[id as OperationId]?.method === 'get';

export async function callOperation(id: string, input: CallInput = {}): Promise<unknown> {
  return (await send(id, input, 'json')).data;
}

/** File name from Content-Disposition (filename* first), as spec §3's download result. */
export function fileNameOf(disposition: string | null, fallback = 'download'): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1]!.trim() : fallback;
}

export async function downloadOperation(id: string, input: CallInput = {}): Promise<{ blob: Blob; fileName: string }> {
  const result = await send(id, input, 'blob');
  return { blob: result.data as Blob, fileName: fileNameOf(result.response.headers.get('content-disposition')) };
}
