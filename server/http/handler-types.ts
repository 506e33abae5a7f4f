import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { operations } from '../../codegen/generated/api.ts';
import type { MultipartModels } from '../../codegen/generated/operations.ts';
import type { Caller } from './caller.ts';
import type { Services } from '../services.ts';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];

type SuccessCode = 200 | 201 | 202 | 204 | 206;
type Responses<K extends OperationId> = Op<K>['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, SuccessCode>;

/** JSON answers are typed by the contract; files (PDF, CSV, octet-stream) are bytes; server-sent events a stream or, all at once, text. */
type BodyOf<R> = R extends { content: { 'application/json': infer J } }
  ? J
  : R extends { content: { 'text/event-stream': unknown } }
    ? Readable | string
    : R extends { content: Record<string, unknown> }
      ? Buffer
      : undefined;

type ResultFor<K extends OperationId, S extends SuccessStatus<K>> = {
  status: S;
  body: BodyOf<Responses<K>[S]>;
  /** For file answers: content-type and content-disposition. */
  headers?: Record<string, string>;
};

/** What a handler may answer: only the success statuses and shapes its operation declares. */
export type HandlerResult<K extends OperationId> = { [S in SuccessStatus<K>]: ResultFor<K, S> }[SuccessStatus<K>];

type Part<T, P extends string> = T extends { [key in P]?: infer V } ? (undefined extends V ? Exclude<V, undefined> : V) : never;
type OrEmpty<T> = [T] extends [never] ? Record<string, never> : T;

export type PathParams<K extends OperationId> = OrEmpty<Part<Op<K>['parameters'], 'path'>>;
export type QueryParams<K extends OperationId> = OrEmpty<Part<Op<K>['parameters'], 'query'>>;
/** A file part of a multipart/form-data call, read into memory within the upload limit. */
export interface UploadedFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/** A multipart call's body: its validated JSON `model` part and its file parts by part name. */
export interface MultipartBody<M> {
  model: M;
  files: Record<string, UploadedFile[]>;
}

export type RequestBody<K extends OperationId> = K extends keyof MultipartModels
  ? MultipartBody<MultipartModels[K]>
  : Op<K> extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : undefined;

export interface HandlerContext<K extends OperationId> {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  caller: Caller;
  services: Services;
  request: FastifyRequest;
}

export type Handler<K extends OperationId> = (context: HandlerContext<K>) => Promise<HandlerResult<K>>;

/** One handler per operation of the contract: a missing one fails the type-check. */
export type Handlers = { [K in OperationId]: Handler<K> };
