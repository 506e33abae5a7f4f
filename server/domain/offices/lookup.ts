import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';

/** The office by id; 404 when there is none. */
export async function officeOf(db: Db, officeId: number) {
  const [office] = await db.select().from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  return office;
}

/** New applications need an office that is approved and active (the 'New Application' button's rule). */
export async function requireApprovedOffice(db: Db, officeId: number) {
  const office = await officeOf(db, officeId);
  if (!office.isApproved || !office.isActive) throw HttpProblem.conflict('The office must be approved and active to start applications.');
  return office;
}
