import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/index.ts';
import { oidcStore } from '../db/schema.ts';

/** Models whose rows belong to a grant (revoked together by revokeByGrantId). */
const GRANTABLE = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'Grant'];

/**
 * oidc-provider's storage in PostgreSQL/PGlite (`oidc_store`): sessions, interactions, grants, codes
 * and refresh tokens survive a restart and are shared by every process (docs/decisions/0062).
 * An expired row is never returned; `purgeExpired` deletes them now and then.
 */
export function postgresAdapter(db: Db): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        model: this.model,
        id,
        payload: payload as Record<string, unknown>,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt,
      };
      await db
        .insert(oidcStore)
        .values(row)
        .onConflictDoUpdate({
          target: [oidcStore.model, oidcStore.id],
          set: { payload: row.payload, grantId: row.grantId, userCode: row.userCode, uid: row.uid, expiresAt, consumedAt: null },
        });
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findBy(eq(oidcStore.id, id));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findBy(eq(oidcStore.userCode, userCode));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findBy(eq(oidcStore.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db.update(oidcStore).set({ consumedAt: new Date() }).where(and(eq(oidcStore.model, this.model), eq(oidcStore.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcStore).where(and(eq(oidcStore.model, this.model), eq(oidcStore.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcStore).where(and(inArray(oidcStore.model, GRANTABLE), eq(oidcStore.grantId, grantId)));
    }

    private async findBy(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcStore.payload, consumedAt: oidcStore.consumedAt })
        .from(oidcStore)
        .where(and(eq(oidcStore.model, this.model), condition, sql`(${oidcStore.expiresAt} is null or ${oidcStore.expiresAt} > now())`))
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/** Deletes rows that expired more than a day ago (kept a little for investigations). */
export async function purgeExpired(db: Db): Promise<void> {
  await db.delete(oidcStore).where(lt(oidcStore.expiresAt, new Date(Date.now() - 86_400_000)));
}

/**
 * Ends one provider session of an account and the grants (with their tokens) it holds: the session a browser's cookie
 * names, when staff hand that browser to a patient (docs/decisions/0232). Returns false when no such session exists.
 */
export async function endSession(db: Db, sessionId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .delete(oidcStore)
    .where(and(eq(oidcStore.model, 'Session'), eq(oidcStore.id, sessionId), sql`${oidcStore.payload}->>'accountId' = ${accountId}`))
    .returning({ payload: oidcStore.payload });
  if (!row) return false;
  const authorizations = Object.values((row.payload as { authorizations?: Record<string, { grantId?: string }> }).authorizations ?? {});
  const grants = authorizations.flatMap((authorization) => (authorization.grantId ? [authorization.grantId] : []));
  if (grants.length) {
    // A grant's tokens name it in grant_id; the grant itself is the row whose id it is.
    await db.delete(oidcStore).where(and(inArray(oidcStore.model, GRANTABLE), or(inArray(oidcStore.grantId, grants), and(eq(oidcStore.model, 'Grant'), inArray(oidcStore.id, grants)))));
  }
  return true;
}

/**
 * Ends every sign-in of an account: its provider sessions, grants and the tokens of those grants
 * (after a password reset, a disabled account, a removed user).
 */
export async function revokeAccount(db: Db, accountId: string): Promise<void> {
  await db.delete(oidcStore).where(
    and(
      inArray(oidcStore.model, ['Session', ...GRANTABLE]),
      sql`${oidcStore.payload}->>'accountId' = ${accountId}`,
    ),
  );
}
