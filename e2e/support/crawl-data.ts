/**
 * What crawl.setup.ts finds in the demo data and the crawl reads: the records, the staff accounts' offices and the
 * borrower's session, and from them each visitor's known, foreign and unknown ids.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlVisitor, SampleTable } from './crawl.ts';

/** Where the setup leaves its files for the crawl (set once by playwright.config.ts, inherited by the workers). */
export const crawlDir = (): string => {
  const dir = process.env.E2E_CRAWL_DIR;
  if (!dir) throw new Error('E2E_CRAWL_DIR is not set (playwright.config.ts sets it)');
  return dir;
};

export interface CrawlData {
  offices: Array<{ id: number; code: string | null }>;
  apps: Array<{ id: number; officeId: number }>;
  users: Array<{ userId: string; email: string; officeIds: number[] }>;
  borrower: { appId: number; token: string };
}

export const readCrawlData = (): CrawlData => JSON.parse(readFileSync(join(crawlDir(), 'data.json'), 'utf8')) as CrawlData;

/** True the first time any worker of the run asks about this text (a directory made atomically per text). */
export function firstInRun(kind: string, text: string): boolean {
  mkdirSync(join(crawlDir(), kind), { recursive: true });
  try {
    mkdirSync(join(crawlDir(), kind, createHash('sha256').update(text).digest('hex')));
    return true;
  } catch {
    return false;
  }
}

/** A value no record has: far past the demo data's ids. */
const UNKNOWN_NUMBER = '987654';

/**
 * The visitor's ids: `known` a record of their own office (the borrower's own application; for someone of no office,
 * nothing), `foreign` one of another office (another borrower's application), `unknown` one that does not exist.
 */
export function samplesFor(visitor: CrawlVisitor, data: CrawlData): SampleTable {
  const account = data.users.find((u) => u.email === visitor.email);
  const own = visitor.kind === 'borrower' ? [data.apps.find((a) => a.id === data.borrower.appId)!.officeId] : (account?.officeIds ?? []);
  const ownApp = visitor.kind === 'borrower' ? data.apps.find((a) => a.id === data.borrower.appId) : data.apps.find((a) => own.includes(a.officeId));
  const foreignApp = data.apps.find((a) => !own.includes(a.officeId) && a.id !== data.borrower.appId);
  const ownOffice = data.offices.find((o) => own.includes(o.id));
  const foreignOffice = data.offices.find((o) => !own.includes(o.id) && o.code);
  const str = (v: number | string | null | undefined) => (v === null || v === undefined ? undefined : String(v));
  return {
    app: { known: str(ownApp?.id), foreign: str(foreignApp?.id), unknown: UNKNOWN_NUMBER },
    office: { known: str(ownOffice?.id), foreign: str(foreignOffice?.id), unknown: UNKNOWN_NUMBER },
    user: { known: account?.userId ?? data.users[0]?.userId, unknown: '00000000-0000-4000-8000-000000000000' },
    invite: { unknown: '00000000-0000-4000-8000-000000000000' },
    landing: { known: str(ownOffice?.code ?? data.offices.find((o) => o.code)?.code), foreign: str(foreignOffice?.code), unknown: 'nosuch' },
    other: { unknown: 'not-a-page' },
  };
}
