import { describe, expect, it } from 'vitest';
import { fileLinkToken, fileOfLink } from '../../server/domain/files/links.ts';
import { HttpProblem } from '../../server/http/problem.ts';

const secret = Buffer.alloc(32, 7);
const fileId = '0b6c2f1e-8d4a-4c1b-9e2f-3a5b7c9d1e2f';
const inAQuarterHour = () => new Date(Date.now() + 15 * 60_000);

function refusal(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof HttpProblem ? error.status : -1;
  }
  return undefined;
}

describe('short-lived file links (decision 0166)', () => {
  it('name the file they were made for until they expire', () => {
    expect(fileOfLink(secret, fileLinkToken(secret, fileId, inAQuarterHour()))).toBe(fileId);
  });

  it('answer 404 once expired, altered, made with another secret, or not a link at all', () => {
    const token = fileLinkToken(secret, fileId, inAQuarterHour());
    const [prefix, , expires, signature] = token.split('.');
    expect(refusal(() => fileOfLink(secret, token, Date.now() + 16 * 60_000))).toBe(404);
    expect(refusal(() => fileOfLink(secret, [prefix, fileId.replace(/^0/, '1'), expires, signature].join('.')))).toBe(404);
    expect(refusal(() => fileOfLink(secret, [prefix, fileId, String(Number(expires) + 3600), signature].join('.')))).toBe(404);
    expect(refusal(() => fileOfLink(Buffer.alloc(32, 8), token))).toBe(404);
    expect(refusal(() => fileOfLink(secret, 'not-a-link-at-all'))).toBe(404);
  });
});
