import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Personal data (SSN, date of birth, bank numbers) is stored as AES-256-GCM ciphertext in a compact
 * text form `v1.<iv>.<tag>.<data>` (base64url). The version prefix leaves room for a later key or
 * algorithm change without guessing what an old value is.
 */
const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class PiiDecryptionError extends Error {
  constructor(reason: string) {
    super(`Cannot decrypt personal data: ${reason}`);
    this.name = 'PiiDecryptionError';
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new RangeError(`The PII key must be ${KEY_BYTES} bytes (got ${key.length})`);
}

export function encryptPii(key: Buffer, plaintext: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join('.');
}

/** Throws PiiDecryptionError for an unknown format, a wrong key or altered ciphertext. */
export function decryptPii(key: Buffer, ciphertext: string): string {
  checkKey(key);
  const parts = ciphertext.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new PiiDecryptionError('unknown format');
  const [, ivText, tagText, dataText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new PiiDecryptionError('unknown format');
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new PiiDecryptionError('wrong key or altered data');
  }
}

/** The last four digits, kept in clear next to an encrypted number so lists can show it. */
export function last4(value: string): string {
  return value.replace(/\D/g, '').slice(-4);
}
