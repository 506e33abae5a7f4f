import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A random single-use token for a link (256 bits, URL-safe). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as this hash: a database dump holds no usable link. */
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A six-digit passcode, uniformly drawn. */
export const newPasscode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
