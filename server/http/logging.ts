/**
 * The server's log never carries personal data (GLBA Safeguards Rule, 16 CFR 314.4; docs/decisions/0171-logs-without-pii.md).
 * Three layers, because personal data reaches a log line three ways:
 * - structured fields: pino `redact` censors the fields of REDACTED_FIELDS wherever a log call names them (top level
 *   or one level down) and the credentials of request headers;
 * - addresses: a request is logged by its route template (`/api/Users/GetInviteInfo/:token`), never its URL, whose
 *   path and query can hold tokens, e-mail addresses and ids;
 * - errors: a database error is logged by its SQL text, SQLSTATE and the names of the table, column and constraint
 *   involved, never by its parameters, its message or its detail (which quote values: 'Key (email)=(…)', 'Failing row
 *   contains (…)'); any other error's message loses what looks like an e-mail address or a long number.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/** Fields that hold personal data or secrets: names, contact, address, income, SSN, dob, bank numbers, tokens, SQL parameters. */
export const REDACTED_FIELDS = [
  'firstName', 'lastName', 'middleName', 'name', 'typedName', 'fullName',
  'email', 'mobilePhone', 'homePhone', 'workPhone', 'phone', 'to', 'from', 'recipient', 'destination',
  'address', 'streetAddress', 'city', 'zipCode',
  'annualIncome', 'otherIncome', 'income', 'monthlyHousingPayment',
  'ssn', 'dob', 'dateOfBirth',
  'routingNumber', 'accountNumber', 'bankAccountNumber', 'bankRoutingNumber', 'amount1', 'amount2',
  'token', 'password', 'secret', 'signaturePng', 'linkToken', 'inviteId',
  'params', 'parameters', 'body',
] as const;

const HEADERS = ['authorization', 'cookie', 'x-api-key', 'x-borrower-token', 'x-sms-webhook-secret', 'x-lender-signature', 'idempotency-key'];

/** pino `redact` paths: every listed field at the top of a log object and one level down, and the credential headers. */
export const REDACT_PATHS = [
  ...REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...HEADERS.flatMap((header) => [`req.headers["${header}"]`, `headers["${header}"]`]),
];

/** A request as a log line shows it: the route it matched, never the address it was called with. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, route: request.routeOptions?.url ?? '(no route)', remoteAddress: request.ip };
}

const EMAIL = /[^\s@"'<>()=,;:]+@[^\s@"'<>()=,;:]+\.[a-z]{2,}/gi;
/** Seven or more digits, possibly split by spaces, dots, dashes or parentheses: phones, SSNs, bank numbers, dates. */
const LONG_NUMBER = /\+?\d[\d\s().-]{5,}\d/g;

/** A free-text message without the personal data that has a recognisable shape. */
export const scrub = (text: string): string => text.replace(EMAIL, '[email]').replace(LONG_NUMBER, '[number]');

/** What a PostgreSQL error says about itself without quoting data (node-postgres and PGlite share these fields). */
const DATABASE_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

const sqlState = (error: Error): string | undefined => {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in error ? code : undefined;
};
const isDatabaseError = (error: Error): boolean => sqlState(error) !== undefined;

/** drizzle's DrizzleQueryError: the statement's text and, in `params`, the values it was run with. */
const isQueryError = (error: Error): error is Error & { query: string } => typeof (error as { query?: unknown }).query === 'string' && 'params' in error;

function messageOf(error: Error): string {
  if (isQueryError(error)) return `Failed query: ${error.query}`;
  if (isDatabaseError(error)) return `database error ${sqlState(error)}`;
  return scrub(error.message);
}

/** The `err` serializer: an error's kind, a safe message, its stack frames and the safe part of its causes. */
export function serializeError(error: unknown, depth = 0): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)), stack: '' };
  const type = error.constructor?.name ?? 'Error';
  const message = messageOf(error);
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const out: { type: string; message: string; stack: string; [key: string]: unknown } = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  if (isDatabaseError(error)) {
    for (const field of DATABASE_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (value !== undefined) out[field] = value;
    }
  } else {
    const { statusCode, code } = error as { statusCode?: unknown; code?: unknown };
    if (typeof statusCode === 'number') out.statusCode = statusCode;
    if (typeof code === 'string') out.code = code;
  }
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const noop = () => undefined;

/**
 * A request's logger, made when the request first logs at a level that is on. pino runs its redaction over a child's
 * bindings when the child is made: with the paths above, about 14 KB of garbage for every request, most of which never
 * log (measured with a sampling heap profile of GetOfficeApps under load).
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: Record<string, unknown>): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  // Fastify's logger is pino's, which numbers its levels. A route's own level (Fastify's `logLevel`, passed in the
  // options) is the request's, louder or quieter than the parent's.
  const { values } = (logger as FastifyBaseLogger & { levels: { values: Record<string, number> } }).levels;
  const threshold = values[typeof options.level === 'string' ? options.level : logger.level] ?? Infinity;
  const enabled = (level: string) => values[level]! >= threshold;
  const made = () => (child ??= logger.child(bindings, options));
  const bound = (target: FastifyBaseLogger, property: string | symbol) => {
    const value = Reflect.get(target, property) as unknown;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(logger, {
    get(_parent, property) {
      if (child) return bound(child, property);
      if (typeof property === 'string' && LEVELS.has(property)) {
        return enabled(property) ? (...args: unknown[]) => (made()[property as 'info'] as (...a: unknown[]) => void)(...args) : noop;
      }
      // Fastify checks that a factory's logger has `child` on every request: answering that must not make one.
      if (property === 'child') return (...args: Parameters<FastifyBaseLogger['child']>) => made().child(...args);
      return bound(made(), property);
    },
    set: (_parent, property, value) => Reflect.set(made(), property, value),
  });
}

/** Fastify's `logger` options: level, redaction and the serializers above. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, err: (error: unknown) => serializeError(error) },
  };
}
