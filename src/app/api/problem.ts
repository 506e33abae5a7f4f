/**
 * Problem details (RFC 9457, schemas/api/problem-details.json) as a typed error, and the error toast text of
 * spec §8. Pure.
 */
import type { ProblemDetails as Problem } from '../../../codegen/generated/schemas.ts';
/** A problem as it may arrive: any member may be missing from an answer that is not ours (a proxy's 502). */
export type ProblemDetails = Partial<Problem>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemDetails | undefined,
    readonly operationId: string,
    message?: string,
  ) {
    super(message ?? problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** Does this look like a problem+json body? */
export function isProblem(body: unknown): body is ProblemDetails {
  return !!body && typeof body === 'object' && !Array.isArray(body) && ('title' in body || 'status' in body || 'traceId' in body);
}

/**
 * A business rule's refusal, in the person's words (issue 37): a 409 says the record is not in a state that allows the
 * action ('An office needs at least one active admin.'), a 429 when to try again. Its detail is written for the person
 * who acted and is shown where they acted, without the operation id a failure carries. Undefined for a failure.
 */
export function refusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || (error.status !== 409 && error.status !== 429)) return undefined;
  return error.problem?.detail || undefined;
}

export interface ErrorTexts {
  serverError: string;
  unexpectedServerError: string;
}

/**
 * The formatted errors under the toast's first line (spec §8): an 'OperationId' line with the traceId when there is
 * one; for a 400 with an errors map, 'field: messages' lines, otherwise detail or title; for other statuses detail or
 * title. Without a problem body: 'A server side error occurred.' for 400/500, else 'An unexpected server error occurred.'
 */
export function errorLines(error: unknown, texts: ErrorTexts): string[] {
  if (!(error instanceof ApiError)) return [error instanceof Error && error.message ? error.message : texts.unexpectedServerError];
  const { problem, status } = error;
  const lines: string[] = [];
  if (problem?.traceId) lines.push(`OperationId: ${problem.traceId}`);
  if (!problem) {
    lines.push(status === 400 || status === 500 ? texts.serverError : texts.unexpectedServerError);
    return lines;
  }
  if (status === 400 && problem.errors && Object.keys(problem.errors).length > 0) {
    for (const [field, messages] of Object.entries(problem.errors)) lines.push(`${field}: ${(messages ?? []).join(' ')}`);
    return lines;
  }
  const text = problem.detail ?? problem.title;
  lines.push(text ?? (status === 400 || status === 500 ? texts.serverError : texts.unexpectedServerError));
  return lines;
}
