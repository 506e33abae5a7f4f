/**
 * What a borrower was shown (issue 41, decision 0289): the web app names, on each call, the descriptor set its page
 * runs on (X-Descriptor-Set: the set's hash, empty for the files as deployed). A borrower's step records that set's
 * publication on the application, so the pages, disclosures and translations they read can be shown again exactly
 * (Studio → History → 'See it as it was').
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { applications, descriptorPublications } from '../db/schema.ts';
import { DESCRIPTOR_SET_HEADER } from '../../core/descriptor-set-header.ts';


/**
 * How long after another publication took its place a set is still taken as shown: a tab keeps its page's set until it
 * changes page, so a form open for a while is answered under the set it was drawn from. The page's word is taken
 * only for a set live within this time: an old set named later is not recorded as what was shown.
 */
const SHOWN_WITHIN_HOURS = 24;

/**
 * The publication a request's page shows: 0 for the deployed files, undefined when the request does not say, or names
 * no set live within SHOWN_WITHIN_HOURS. Any other content published twice (a rollback to it) is its newest publication.
 */
async function publicationShown(db: Db, request: Pick<FastifyRequest, 'headers'>): Promise<number | undefined> {
  const hash = request.headers[DESCRIPTOR_SET_HEADER];
  if (typeof hash !== 'string' || !/^([0-9a-f]{16})?$/.test(hash)) return undefined;
  // Each publication with the time the next one replaced it; the deployed files before the first one count as 0.
  const rows = await db.execute<{ id: number }>(sql`
    with spans as (
      select ${descriptorPublications.id} as id, ${descriptorPublications.hash} as hash, lead(${descriptorPublications.publishedAt}) over (order by ${descriptorPublications.id}) as replaced_at
      from ${descriptorPublications}
      union all
      select 0, '', (select min(${descriptorPublications.publishedAt}) from ${descriptorPublications})
    )
    select id from spans
    where hash = ${hash} and (replaced_at is null or replaced_at > now() - make_interval(hours => ${SHOWN_WITHIN_HOURS}))
    order by id desc limit 1`);
  const row = rows.rows[0];
  // The deployed files are 0, whichever rollback made them live again.
  return row === undefined ? undefined : hash === '' ? 0 : Number(row.id);
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
