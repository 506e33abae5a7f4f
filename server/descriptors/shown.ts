/**
 * What a borrower was shown (issue 41, decision 0289): the web app names, on each call, the descriptor set its page
 * runs on (X-Descriptor-Set: the set's hash, empty for the files as deployed). A borrower's step records that set's
 * publication on the application, so the pages, disclosures and translations they read can be shown again exactly
 * (Studio → History → 'See it as it was').
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { applications } from '../db/schema.ts';
import { setByHash } from './live.ts';

export const SHOWN_SET_HEADER = 'x-descriptor-set';

/** The publication a request's page shows: 0 for the deployed files, undefined when the request does not say (or names no set). */
export async function publicationShown(db: Db, request: Pick<FastifyRequest, 'headers'>): Promise<number | undefined> {
  const hash = request.headers[SHOWN_SET_HEADER];
  if (hash === '') return 0;
  if (typeof hash !== 'string' || !/^[0-9a-f]{16}$/.test(hash)) return undefined;
  return (await setByHash(db, hash))?.id;
}

/** Records on an application the publication the request's page shows, when it says and it changed. */
export async function recordShown(db: Db, appId: number, request: Pick<FastifyRequest, 'headers'>): Promise<void> {
  const id = await publicationShown(db, request);
  if (id === undefined) return;
  await db
    .update(applications)
    .set({ shownPublication: id })
    .where(and(eq(applications.id, appId), sql`${applications.shownPublication} is distinct from ${id}`));
}
