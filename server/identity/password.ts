import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are hashed with scrypt and stored as a self-describing PHC-style string
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64url), so the cost can be raised later while old
 * hashes still verify with the parameters they were made with.
 */
export const MIN_PASSWORD_LENGTH = 12;

const LOG2_N = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Stored parameters above these are refused so a forged hash cannot make a login burn memory. */
const MAX_LOG2_N = 20;
const MAX_BLOCK_SIZE = 16;
const MAX_PARALLELISM = 4;

const FORMAT = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export class PasswordPolicyError extends Error {
  constructor(readonly minLength: number) {
    super(`The password must be at least ${minLength} characters long.`);
    this.name = 'PasswordPolicyError';
  }
}

interface Params {
  log2N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, keyLength: number, { log2N, r, p }: Params): Promise<Buffer> {
  const N = 2 ** log2N;
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly that for N=2^15, r=8.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  if ([...password.normalize('NFKC')].length < MIN_PASSWORD_LENGTH) throw new PasswordPolicyError(MIN_PASSWORD_LENGTH);
  const params: Params = { log2N: LOG2_N, r: BLOCK_SIZE, p: PARALLELISM };
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `$scrypt$ln=${params.log2N},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** False for a wrong password and for a stored value that is not a hash this module made. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const match = FORMAT.exec(encoded);
  if (!match) return false;
  const [, log2N, r, p, saltText, keyText] = match as unknown as [string, string, string, string, string, string];
  const params: Params = { log2N: Number(log2N), r: Number(r), p: Number(p) };
  if (params.log2N < 1 || params.log2N > MAX_LOG2_N) return false;
  if (params.r < 1 || params.r > MAX_BLOCK_SIZE || params.p < 1 || params.p > MAX_PARALLELISM) return false;
  const expected = Buffer.from(keyText, 'base64url');
  if (expected.length < 16) return false;
  const actual = await derive(password, Buffer.from(saltText, 'base64url'), expected.length, params);
  return timingSafeEqual(actual, expected);
}
