import { and, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { permissionChanges } from '../../../core/permissions.ts';
import type { Db } from '../../db/index.ts';
import { userOffices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { officeUser } from './reads.ts';

/**
 * Users_SetPermissions (decision 0279): what a person may do in an office from now on, kept as what differs from their
 * role's template. An admin cannot take away their own permission to manage users: no office is left without a way
 * back by one click.
 */
export async function setPermissions(db: Db, actorId: string, body: components['schemas']['OfficeUserPermissions']): Promise<components['schemas']['OfficeUser']> {
  if (body.userId === actorId && !body.permissions.includes('manageUsers')) {
    throw HttpProblem.conflict('You cannot take away your own permission to manage users. Ask another admin of the office.');
  }
  await db.transaction(async (tx) => {
    const [link] = await tx
      .select({ role: userOffices.role })
      .from(userOffices)
      .where(and(eq(userOffices.userId, body.userId), eq(userOffices.officeId, body.officeId)))
      .for('update');
    if (!link) throw new HttpProblem(404, 'The user is not a user of this office.');
    const { granted, withdrawn } = permissionChanges(link.role, body.permissions);
    await tx
      .update(userOffices)
      .set({ permissionsGranted: granted, permissionsWithdrawn: withdrawn })
      .where(and(eq(userOffices.userId, body.userId), eq(userOffices.officeId, body.officeId)));
  });
  return officeUser(db, body.userId, body.officeId);
}
