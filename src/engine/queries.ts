/** Operation reads through TanStack Query: their keys, polling, the page's missing record, the error toast, the session's sync. */
import { useContext, useEffect } from 'react';
import { useQueries, useQuery, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import type { Binding, DataSource } from '../../codegen/generated/descriptors.ts';
import { bind, condition, getPath, text, type Context } from '../../core/expressions.ts';
import { callInput } from './actions.ts';
import { useEngine, type CallInput, type EngineServices } from './services.ts';
import { MissingContext, type Missing } from './contexts.ts';

type QueryBinding = Binding | DataSource | undefined;

/** How many times its interval a poll waits at most while the answer stays the same. */
export const POLL_BACKOFF_LIMIT = 4;

/** Per query: when its answer last arrived, that answer, and how many answers in a row were the same. */
const pollHistory = new WeakMap<object, { at: number; data: unknown; same: number }>();

/**
 * A poll's next wait (spec §7, TanStack calls it after every change of the query): none once a read failed (a record
 * gone or not the visitor's has nothing to follow) or once `refetchWhile` no longer holds for the answer; otherwise the
 * interval, doubled for each answer in a row that equals the one before (structural sharing keeps an equal answer the
 * same object), up to POLL_BACKOFF_LIMIT times; a changed answer starts again from the interval.
 */
export function pollWait(source: DataSource & { refetchInterval: number }, context: Context) {
  return (query: Pick<Query, 'state'>): number | false => {
    const { status, data, dataUpdatedAt } = query.state;
    if (status === 'error') return false;
    if (data !== undefined && source.refetchWhile !== undefined) {
      const answer = source.select ? getPath(data, source.select) : data;
      if (!condition(source.refetchWhile, { ...context, data: answer }, true)) return false;
    }
    const seen = pollHistory.get(query);
    if (!seen || seen.at !== dataUpdatedAt) pollHistory.set(query, { at: dataUpdatedAt, data, same: seen && seen.data === data ? seen.same + 1 : 0 });
    return source.refetchInterval * Math.min(2 ** pollHistory.get(query)!.same, POLL_BACKOFF_LIMIT);
  };
}

/** Path and query values travel as text: '7' from the address and 7 from the session name one request, and share one query. */
const asText = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]));
export const requestKey = ({ params, query, body }: CallInput) => ({
  ...(params ? { params: asText(params) } : {}),
  ...(query ? { query: asText(query) } : {}),
  ...(body === undefined ? {} : { body }),
});

/** The HTTP status of a failed call, if it carries one. */
const statusOf = (error: unknown): unknown => (error as { status?: unknown } | null)?.status;
/**
 * A refusal the same visitor would get again: the record is missing (404), not theirs (403), or not open to whoever is
 * signed in here (401: the API client has already renewed a lapsed session once before a 401 reaches a page).
 */
const isRefusal = (error: unknown) => [401, 403, 404].includes(statusOf(error) as number);

/** Someone else signed in here: what was refused to the visitor before is asked for again where it shows. */
export function forgetRefusals(client: QueryClient): Promise<void> {
  return client.resetQueries({ predicate: (query) => query.state.status === 'error' && isRefusal(query.state.error) });
}

/** The query of a binding in a context: keyed by operationId and the request it makes. */
export function operationQuery(services: EngineServices, binding: QueryBinding, context: Context, extraBody?: Record<string, unknown>) {
  const enabled = !!binding && condition(binding.when, context, true);
  let input: CallInput | undefined;
  if (binding && enabled) {
    const base = callInput(binding, context);
    input = extraBody ? { ...base, body: { ...((base.body as Record<string, unknown>) ?? {}), ...extraBody } } : base;
  }
  const poll = binding && 'refetchInterval' in binding && binding.refetchInterval ? { ...binding, refetchInterval: binding.refetchInterval } : undefined;
  const queryKey = [binding?.operation ?? 'none', input && requestKey(input)];
  return {
    queryKey,
    queryFn: () => services.api.call(binding!.operation, input!),
    enabled,
    // A refusal stands for the visitor it refused: another part of the page showing the same read does not ask again
    // (a failure that may pass, a 5xx, is asked again). Decided when the part mounts, not when it renders: a render can
    // precede its commit by the whole read (a page drawn while a new descriptor set or a chunk loads), and the answer
    // known at the render would be stale by then.
    retryOnMount: (query: Query) => !isRefusal(query.state.error),
    ...(poll ? { refetchInterval: pollWait(poll, context) } : {}),
    ...(binding && 'refetchOnFocus' in binding && binding.refetchOnFocus ? { refetchOnWindowFocus: 'always' as const } : {}),
  };
}

/**
 * The call starts while the page renders, not after the commit and the paint that follow (useQuery's subscription
 * runs in an effect): a page's data then arrives while React is still taking the previous page down.
 */
function startWhileRendering(client: QueryClient, query: ReturnType<typeof operationQuery>): void {
  if (query.enabled && !client.getQueryState(query.queryKey)) void client.prefetchQuery({ queryKey: query.queryKey, queryFn: query.queryFn });
}

/** A failed read shows the error toast of spec §8 (unless the binding is quiet), once per new error. */
function useErrorToast(error: unknown, binding: QueryBinding, context: Context): void {
  const services = useEngine();
  const quiet = binding && 'quiet' in binding ? binding.quiet : false;
  const errorTitle = binding?.errorTitle;
  useEffect(() => {
    if (error && !quiet) services.toast.error(error, errorTitle === undefined ? undefined : text(errorTitle, context));
    // Only a new error shows a new toast.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
}

/** Does an expression read the address's parameters (`route.params.…`)? */
function readsRouteParams(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(readsRouteParams);
  if (!node || typeof node !== 'object') return false;
  return Object.entries(node).some(([key, value]) => {
    const name = key === 'var' ? (Array.isArray(value) ? value[0] : value) : undefined;
    return (typeof name === 'string' && name.startsWith('route.params.')) || readsRouteParams(value);
  });
}

/**
 * A read the page cannot do without: 403, the page shows what the visitor may not see (the server refuses more than
 * the route table, or the address names another office's record); 404 of the record the address names (the binding
 * reads `route.params`), the address names nothing. A quiet source says so in its own words instead.
 */
export function missingRecord(error: unknown, binding: QueryBinding): Missing | undefined {
  if (!binding || ('quiet' in binding && binding.quiet)) return undefined;
  const status = statusOf(error);
  if (status === 403) return 'forbidden';
  if (status === 404) return readsRouteParams([binding.params, binding.query, binding.body]) ? 'notFound' : undefined;
  return status === 400 && refusesOnlyTheAddress(error, binding) ? 'notFound' : undefined;
}

/**
 * A 400 whose every field error is a parameter or body field the address gives (`/admin/offices/abc`, where an id is a
 * number): the address names nothing that could exist.
 */
function refusesOnlyTheAddress(error: unknown, binding: NonNullable<QueryBinding>): boolean {
  const fields = Object.keys((error as { problem?: { errors?: Record<string, unknown> } }).problem?.errors ?? {});
  const fromAddress = { ...(binding.body as Record<string, unknown> | undefined), ...binding.params, ...binding.query } as Record<string, unknown>;
  return fields.length > 0 && fields.every((field) => field in fromAddress && readsRouteParams(fromAddress[field]));
}

/**
 * Reads an operation through TanStack Query; the screen renders whether it answers or fails. When the read of the
 * record the address names fails with 404 or 403, the page shows the not-found or not-authorized content in place of
 * itself, once and without an error toast (the query is not read again: the screen that read it is gone).
 */
export function useOperationQuery(binding: QueryBinding, context: Context, extraBody?: Record<string, unknown>) {
  const services = useEngine();
  const client = useQueryClient();
  const showMissing = useContext(MissingContext);
  const options = operationQuery(services, binding, context, extraBody);
  startWhileRendering(client, options);
  const query = useQuery(options);
  const missing = showMissing ? missingRecord(query.error, binding) : undefined;
  useEffect(() => {
    if (missing) showMissing?.(missing);
  }, [missing, showMissing]);
  useErrorToast(missing ? null : query.error, binding, context);
  useSessionSync(binding, context, query.data);
  return query;
}

/** Writes a source's `syncSession` values into the session when they differ from what it holds. */
function useSessionSync(binding: QueryBinding, context: Context, data: unknown): void {
  const services = useEngine();
  const sync = binding && 'syncSession' in binding ? binding.syncSession : undefined;
  useEffect(() => {
    if (!sync || data === undefined) return;
    const held = services.session.get();
    const changed = Object.entries(bind(sync, { ...context, data })).filter(([name, value]) => held[name] !== value);
    if (changed.length) services.session.update(Object.fromEntries(changed));
    // The answer decides; the context only words it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sync, data, services]);
}

/** One read of the same binding per context (a kanban's lanes, each seeing its own `lane`), in parallel. */
export function useOperationQueries(binding: QueryBinding, contexts: readonly Context[]) {
  const services = useEngine();
  const client = useQueryClient();
  const all = contexts.map((context) => operationQuery(services, binding, context));
  for (const options of all) startWhileRendering(client, options);
  const queries = useQueries({ queries: all });
  useErrorToast(queries.find((q) => q.error)?.error ?? null, binding, contexts[0] ?? {});
  return queries;
}
