import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Channel = 'Email' | 'Sms';

const MAGIC = Buffer.from('OTP', 'latin1');
const CHANNELS: Channel[] = ['Email', 'Sms'];

const subKey = (secret: Buffer, purpose: string): Buffer => createHmac('sha256', secret).update(purpose).digest();

/**
 * The challengeId of Otp_SendOtp/VerifyOtp names the (application, channel) whose passcode is being
 * checked, without a table of its own: the pair is one AES block (app id, channel, a marker, random
 * bytes) encrypted under a key derived from BORROWER_TOKEN_SECRET, written as a UUID. It is not a
 * secret (anyone may ask for a code for an application), only unforgeable and opaque; the passcode is
 * the secret. docs/decisions/0067-borrower-passcodes.md
 */
export function encodeChallenge(secret: Buffer, appId: number, channel: Channel): string {
  const block = Buffer.alloc(16);
  block.writeBigUInt64BE(BigInt(appId), 0);
  block.writeUInt8(CHANNELS.indexOf(channel), 8);
  MAGIC.copy(block, 9);
  randomBytes(4).copy(block, 12);
  const cipher = createCipheriv('aes-256-ecb', subKey(secret, 'otp-challenge'), null).setAutoPadding(false);
  const hex = Buffer.concat([cipher.update(block), cipher.final()]).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function decodeChallenge(secret: Buffer, challengeId: string): { appId: number; channel: Channel } | undefined {
  const hex = challengeId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) return undefined;
  const decipher = createDecipheriv('aes-256-ecb', subKey(secret, 'otp-challenge'), null).setAutoPadding(false);
  const block = Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]);
  if (!block.subarray(9, 12).equals(MAGIC)) return undefined;
  const channel = CHANNELS[block.readUInt8(8)];
  const appId = block.readBigUInt64BE(0);
  if (!channel || appId < 1n || appId > 2_147_483_647n) return undefined;
  return { appId: Number(appId), channel };
}

/** Codes are stored as keyed hashes: six digits are too few for a plain hash to resist a dump. */
export function hashCode(secret: Buffer, appId: number, channel: Channel, code: string): string {
  return createHmac('sha256', subKey(secret, 'otp-code')).update(`${appId}:${channel}:${code}`).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  return `(***) ***-${phone.replace(/\D/g, '').slice(-4)}`;
}
