import type { Db } from '../../db/index.ts';
import { linkTokens } from '../../db/schema.ts';
import { newToken, tokenHash } from '../../identity/secrets.ts';
import { routePath } from './routing.ts';

/** A single-use link token (256 bits), stored as its SHA-256 only. */
export async function issueLinkToken(tx: Db, appId: number, ttlHours: number): Promise<string> {
  const token = newToken();
  await tx.insert(linkTokens).values({ tokenHash: tokenHash(token), appId, expiresAt: new Date(Date.now() + ttlHours * 3_600_000) });
  return token;
}

/**
 * The borrower sign-in page of the application with the link token, `PUBLIC_URL/#/app/auth/{id}?t=…`; `language`
 * (kept with the application) opens it in theirs (decision 0216).
 */
export function borrowerLink(publicUrl: string, appId: number, token: string, language: string | null = null): string {
  return `${publicUrl}/#${routePath('app-auth-id', { id: appId })}?t=${token}${language ? `&lang=${language}` : ''}`;
}
