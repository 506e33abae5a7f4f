import { and, eq, sql } from 'drizzle-orm';
import { serverBrand } from '../../descriptors/brands.ts';
import type { Db } from '../../db/index.ts';
import { userOffices, users } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import { activeLink } from '../users/reads.ts';

/** E-mails to an office about the office itself: who they go to, their brand and where their links point. */

/** The office's active admins (accepted, enabled links of enabled accounts). */
export async function activeAdminContacts(db: Db, officeId: number): Promise<{ email: string; firstName: string }[]> {
  return db
    .select({ email: users.email, firstName: users.firstName })
    .from(userOffices)
    .innerJoin(users, eq(users.id, userOffices.userId))
    .where(and(eq(userOffices.officeId, officeId), eq(userOffices.role, 'admin'), activeLink, sql`not ${users.isDisabled}`))
    .orderBy(users.email);
}

export interface MailContext {
  publicUrl: string;
  brandName: string;
}

/** E-mails sent by API calls carry links to PUBLIC_URL: they wear the brand of that host. */
export const mailContext = (services: Services): MailContext => ({
  publicUrl: services.settings.publicUrl,
  brandName: serverBrand(new URL(services.settings.publicUrl).host).name,
});
