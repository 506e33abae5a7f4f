/**
 * The cost of checking an answer against the contract before it is sent (decision 0202): the two hot lists' answers
 * — a page of 25 applications (GetOfficeApps) and the kanban's 8 lanes of 25 (GetOfficeAppsByStage) — checked as the
 * server checks its answers, and with the full calendar check of their dates and every error collected, as requests
 * are. Runs alone: `npx tsx bench/answer-check.ts`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { samples } from '../codegen/generated/samples.ts';
import { createContractAjv, localize } from '../core/contract/ajv.ts';
import { bundleOpenApi } from '../core/contract/bundle.ts';
import type { JsonObject } from '../core/contract/documents.ts';
import { readOperations } from '../core/contract/operations.ts';
import { compileValidators, contractNode } from '../core/contract/validators.ts';
import { percentile } from './stats.ts';

const PAGE = 25;
const LANES = 8;
const ROUNDS = 9;
const BUDGET_MS_PER_ROUND = 40;

type Row = Record<string, unknown>;

const DATES = ['createdAtUtc', 'updatedAtUtc', 'expirationDateUtc'];

/** The sample row, with a different id and dates (those of its kind) per row. */
function rows(sample: Row, offset: number): Row[] {
  return Array.from({ length: PAGE }, (_, i) => {
    const at = new Date(Date.UTC(2026, 10, 1 + i, 9, i, 30, offset + i)).toISOString();
    return { ...sample, id: 1000 + offset + i, ...Object.fromEntries(DATES.filter((name) => name in sample).map((name) => [name, at])) };
  });
}

const ANSWERS = {
  'a page of 25 applications': {
    operation: 'App_GetOfficeApps',
    answer: () => {
      const page = samples.App_GetOfficeApps as { results: Row[] };
      return { ...page, pageSize: PAGE, results: rows(page.results[0]!, 0) };
    },
  },
  'the kanban, 8 lanes of 25': {
    operation: 'App_GetOfficeAppsByStage',
    answer: () => {
      const lane = (samples.App_GetOfficeAppsByStage as { results: Row[] }[])[0]!;
      return Array.from({ length: LANES }, (_, i) => ({ ...lane, results: rows(lane.results[0]!, i * PAGE) }));
    },
  },
};

/** Microseconds per check, in a round of as many checks as fit the round's budget. */
function timePerCheck(validate: ValidateFunction, answer: unknown): number {
  const start = performance.now();
  let checks = 0;
  do {
    if (!validate(answer)) throw new Error(JSON.stringify(validate.errors));
    checks++;
  } while (performance.now() - start < BUDGET_MS_PER_ROUND);
  return ((performance.now() - start) * 1000) / checks;
}

export interface AnswerCheck {
  answer: string;
  /** µs as the server checks its answers. */
  answers: number;
  /** µs with the full calendar check and every error, as requests are checked. */
  full: number;
}

/** Each answer checked both ways in alternating rounds; the median of each. */
export function benchAnswerCheck(): AnswerCheck[] {
  const bundled = bundleOpenApi();
  const operations = readOperations(bundled);
  // The server's own check, compiled as the server compiles it; beside it, the same schema under the requests' rules.
  const server = compileValidators(bundled, operations);
  const full = createContractAjv(bundled);
  return Object.entries(ANSWERS).map(([name, { operation, answer: make }]) => {
    const op = operations.find((candidate) => candidate.operationId === operation)!;
    const schema = localize(contractNode(bundled, `${op.pointer}/responses/200/content/application~1json/schema`)!) as JsonObject;
    const checks = { full: full.compile(schema), answers: server.get(operation)!.responses.get(200)! };
    const answer = make();
    const times = { full: [] as number[], answers: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const full = timePerCheck(checks.full, answer);
      const answers = timePerCheck(checks.answers, answer);
      // The first round warms the code up.
      if (round === 0) continue;
      times.full.push(full);
      times.answers.push(answers);
    }
    return { answer: name, full: percentile(times.full, 50), answers: percentile(times.answers, 50) };
  });
}

export function answerCheckLines(results: AnswerCheck[]): string[] {
  return results.map(({ answer, answers, full }) => `answer check of ${answer}: ${answers.toFixed(1)} µs (with the full calendar check and every error: ${full.toFixed(1)} µs, ${((answers / full) * 100).toFixed(0)} %)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) for (const line of answerCheckLines(benchAnswerCheck())) console.log(line);
