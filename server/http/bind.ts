import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../../core/contract/operations.ts';
import { ACCESS_HEADER, encodeAccess } from '../../core/access-header.ts';
import type { ContractValidators, OperationValidators } from '../../core/contract/validators.ts';
import { catalogueIn, toFieldErrors, type MessageCatalogue } from '../../core/messages.ts';
import { languageFor } from '../descriptors/languages.ts';
import { wordsOf } from '../../core/i18n.ts';
import { HttpProblem } from './problem.ts';
import type { Handlers, MultipartBody, OperationId, UploadedFile } from './handler-types.ts';
import type { Services } from '../services.ts';
import type { Caller } from './caller.ts';
import { once } from './idempotency.ts';
import { recordShown } from '../descriptors/shown.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { dueJobsWritten } from '../jobs/queue.ts';
import { cleanBody, refuseNonFiniteInBody, cleanText, parseModel, refuseControlCharacters, refuseDeepNesting, refuseNonFinite } from './input.ts';

export interface BindOptions {
  operations: Operation[];
  validators: ContractValidators;
  handlers: Handlers;
  catalogue: MessageCatalogue;
  services: Services;
  /** This server's runner of the durable queue: what a write enqueued starts at once. */
  jobs?: JobRunner;
  access: {
    /** Establishes the caller (401 when the operation needs one that is not there). */
    authenticate: (operation: Operation, request: FastifyRequest) => Promise<Caller>;
    /** Refuses a caller whose role the operation's x-access never admits (403), before the input is read. */
    admit: (operation: Operation, caller: Caller) => void;
    /** Refuses what the operation's x-access does not allow this caller on this record, once the input is known valid. */
    authorize: (operation: Operation, request: FastifyRequest, caller: Caller) => Promise<void>;
  };
}

type Loose = Record<string, unknown>;

const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Mask placeholders and blanks mean "not given": the field is dropped, as the form engine does. */
function dropEmptyValues(body: unknown, fields: OperationValidators['emptyValues']): void {
  for (const { path, values } of fields) {
    let parent: unknown = body;
    for (const part of path.slice(0, -1)) parent = parent && typeof parent === 'object' ? (parent as Loose)[part] : undefined;
    const name = path[path.length - 1];
    if (name === undefined || !parent || typeof parent !== 'object' || Array.isArray(parent)) continue;
    if (values.includes((parent as Loose)[name] as never)) delete (parent as Loose)[name];
  }
}

function check(validate: OperationValidators['body'], value: unknown, catalogue: MessageCatalogue, prefix?: string): void {
  if (!validate || validate(value)) return;
  const errors = toFieldErrors(catalogue, validate.errors ?? []);
  if (!prefix) throw HttpProblem.validation(errors);
  throw HttpProblem.validation(Object.fromEntries(Object.entries(errors).map(([field, list]) => [field === '$' ? prefix : field, list])));
}

async function send(reply: FastifyReply, op: Operation, validators: OperationValidators, result: { status: number; body: unknown; headers?: Record<string, string> }, services: Services): Promise<void> {
  const media = op.responses.get(result.status);
  if (!media) {
    services.log.error({ operationId: op.operationId, status: result.status }, 'handler answered an undeclared status');
    throw new Error('undeclared status');
  }
  // A stream (server-sent events) is checked as it is written, not here: its frames are made by the server's own code.
  if (result.body instanceof Readable) {
    reply.code(result.status);
    for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
    return reply.send(result.body);
  }
  const validate = validators.responses.get(result.status);
  if (validate && !validate(result.body)) {
    // Fail closed: an answer that breaks the contract may leak fields it should not carry.
    // Where and which rule, never the value: ajv's verbose errors carry the data, which may be personal.
    const errors = (validate.errors ?? []).map(({ instancePath, keyword, message }) => ({ instancePath, keyword, message }));
    services.log.error({ operationId: op.operationId, errors }, 'handler answer does not match the contract');
    throw new Error('response does not match the contract');
  }
  reply.code(result.status);
  for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
  if (result.body === undefined) return reply.send();
  if (Buffer.isBuffer(result.body) || (typeof result.body === 'string' && !media.some((type) => type.includes('json')))) {
    return reply.type(result.headers?.['content-type'] ?? media[0] ?? 'application/octet-stream').send(result.body);
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(result.body));
}

/** The boundary parameter of a multipart content type (RFC 2046: 1 to 70 characters, quoted or not); without one there are no parts to read. */
const BOUNDARY = /;\s*boundary=("?)[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]\1\s*(?:;|$)/i;

/** Reads a multipart/form-data call into its validated JSON model and its file parts. */
async function readMultipart(request: FastifyRequest, spec: NonNullable<OperationValidators['multipart']>, catalogue: MessageCatalogue): Promise<MultipartBody<unknown>> {
  if (!request.isMultipart() || !BOUNDARY.test(request.headers['content-type'] ?? '')) {
    throw HttpProblem.validation({ $: ['The request must be multipart/form-data with a boundary.'] });
  }
  const files: Record<string, UploadedFile[]> = {};
  let modelText: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname !== 'model') throw HttpProblem.validation({ [part.fieldname]: [catalogue.messages.unknownField] });
      modelText = String(part.value);
      continue;
    }
    const allowed = spec.fileParts.get(part.fieldname);
    if (!allowed) throw HttpProblem.validation({ [part.fieldname]: [catalogue.messages.unknownField] });
    const list = (files[part.fieldname] ??= []);
    if (list.length >= allowed.maxItems) throw HttpProblem.validation({ [part.fieldname]: [`At most ${allowed.maxItems} file(s).`] });
    // A file's name and type are text the person's device supplied: cleaned like typed text.
    list.push({ fileName: cleanText(part.filename), contentType: cleanText(part.mimetype), data: await part.toBuffer() });
  }
  if (modelText === undefined) throw HttpProblem.validation({ model: [catalogue.messages.required] });
  const model = cleanBody(parseModel(modelText, catalogue));
  check(spec.model, model, catalogue);
  return { model, files };
}

/** Registers one route per contract operation, validated in and out by the contract's own schemas. */
export function bindOperations(app: FastifyInstance, options: BindOptions): void {
  const { operations, validators, handlers, services, access } = options;
  // The messages in each language, made once (decision 0216): a message's {limit} is filled after translation.
  const inLanguage = new Map<string, MessageCatalogue>();
  const catalogueOf = (request: FastifyRequest): MessageCatalogue => {
    const language = languageFor(request.headers['accept-language']);
    let catalogue = inLanguage.get(language.locale);
    if (!catalogue) inLanguage.set(language.locale, (catalogue = catalogueIn(options.catalogue, wordsOf(language.texts))));
    return catalogue;
  };
  const callers = new WeakMap<FastifyRequest, Caller>();
  for (const op of operations) {
    const handler = handlers[op.operationId as OperationId] as unknown as (context: Loose) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;
    if (!handler) throw new Error(`no handler for operation ${op.operationId}`);
    app.route({
      method: op.method.toUpperCase() as 'GET',
      url: fastifyPath(op.path),
      config: { cache: op.cache },
      // Who asks, and whether their role may ask at all, come before the body is read (decision 0249): callers without a
      // right learn nothing from validation errors, and make the server parse nothing.
      onRequest: async (request, reply) => {
        const caller = await access.authenticate(op, request);
        // Before admit: a refusal after a demotion carries the new facts too.
        if (caller.kind === 'staff') reply.header(
            ACCESS_HEADER,
            encodeAccess({ userRole: caller.userRole, roles: Object.fromEntries(caller.offices), permissions: Object.fromEntries(caller.permissions), disabled: [...caller.disabledOffices] }),
          );
        access.admit(op, caller);
        callers.set(request, caller);
      },
      handler: async (request, reply) => {
        const caller = callers.get(request)!;
        const own = validators.get(op.operationId);
        if (!own) throw new Error(`no validators for operation ${op.operationId}`);
        const catalogue = catalogueOf(request);
        const params = { ...(request.params as Loose) };
        const query = { ...(request.query as Loose) };
        refuseControlCharacters({ ...params, ...query }, catalogue);
        check(own.params, params, catalogue);
        check(own.query, query, catalogue);
        refuseNonFinite({ ...params, ...query }, op.parameters, catalogue);
        const key = request.headers['idempotency-key'];
        // Money and messages happen once (decision 0172): such a call without a key is refused, not run unguarded.
        if (op.idempotent && key === undefined) {
          const message = catalogue.messages.idempotencyKeyRequired;
          throw new HttpProblem(400, message, { errors: { 'idempotency-key': [message] } });
        }
        check(own.headers, request.headers, catalogue);
        if (own.multipart) {
          request.body = await readMultipart(request, own.multipart, catalogue);
        } else if (op.requestBodyTypes.includes('application/json')) {
          if (request.body === undefined && op.requestBodyRequired) throw HttpProblem.validation({ $: [catalogue.messages.required] });
          if (request.body !== undefined) {
            refuseDeepNesting(request.body, '$');
            cleanBody(request.body);
            refuseNonFiniteInBody(request.body, catalogue);
            dropEmptyValues(request.body, own.emptyValues);
            check(own.body, request.body, catalogue);
          }
        }
        request.params = params;
        request.query = query;
        await access.authorize(op, request, caller);
        // Given a transaction (a write with an Idempotency-Key, decision 0253), the handler works in it, and what must
        // follow its commit waits for that transaction's.
        const committed: Array<() => unknown> = [];
        const dueBefore = dueJobsWritten();
        const inTransaction = (db: Services['db']): Services => ({ ...services, db, afterCommit: async (work) => void committed.push(work) });
        const invoke = (db = services.db) => handler({ params, query, body: request.body, caller, services: db === services.db ? services : inTransaction(db), request });
        const result =
          op.write && typeof key === 'string'
            ? await once(services.db, { key, operation: op.operationId, caller, method: request.method, url: request.url, body: request.body }, invoke, { atomic: op.atomic })
            : await invoke();
        for (const work of committed) await work();
        // A borrower's step records the pages it was taken on (decision 0289).
        if (op.write && caller.kind === 'borrower' && result.status < 300) await recordShown(services.db, caller.appId, request);
        // What a write enqueued to run now (messages, lender orders, webhook deliveries) starts now, not at the runner's
        // next tick.
        if (dueJobsWritten() !== dueBefore) options.jobs?.kick();
        await send(reply, op, own, result, services);
        return reply;
      },
    });
  }
}
