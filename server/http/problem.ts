import type { ProblemDetails } from '../../codegen/generated/schemas.ts';

/** application/problem+json (RFC 9457), the only error shape the API answers with. */
export type { ProblemDetails };

/** Problems carry no further semantics than their status, so type is about:blank and title its phrase. */
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** An error a handler throws on purpose; its text is safe to show to the caller. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: Record<string, string[]> | undefined;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(status: number, detail?: string, options: { errors?: Record<string, string[]>; extensions?: Record<string, unknown> } = {}) {
    super(detail ?? TITLES[status] ?? `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.extensions = options.extensions;
  }

  /** A 429 saying when to try again. */
  static tooMany(detail: string, retryAfterSeconds: number): HttpProblem {
    return new HttpProblem(429, detail, { extensions: { retryAfterSeconds } });
  }

  /** A 409: the record is not in a state that allows this. */
  static conflict(detail: string): HttpProblem {
    return new HttpProblem(409, detail);
  }

  /** A 400 for one field, in the words of a server rule. */
  static field(field: string, text: string): HttpProblem {
    return HttpProblem.validation({ [field]: [text] });
  }

  /** A 400 naming the fields at fault, as the validators do. */
  static validation(errors: Record<string, string[]>): HttpProblem {
    return new HttpProblem(400, 'One or more validation errors occurred.', { errors });
  }
}

/** The problem's body; its detail and messages in the caller's language (`words`, decision 0216). */
export function problemBody(problem: HttpProblem, traceId: string, instance: string, words: (source: string) => string = (s) => s): ProblemDetails {
  return {
    type: 'about:blank',
    title: TITLES[problem.status] ?? 'Error',
    status: problem.status,
    ...(problem.detail !== undefined ? { detail: words(problem.detail) } : {}),
    instance,
    traceId,
    ...(problem.errors ? { errors: Object.fromEntries(Object.entries(problem.errors).map(([field, messages]) => [field, messages.map((m) => words(m))])) } : {}),
    ...(problem.extensions ? { extensions: problem.extensions } : {}),
  };
}
