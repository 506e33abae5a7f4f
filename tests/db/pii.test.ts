import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptPii, encryptPii, last4, PiiDecryptionError } from '../../server/crypto/pii.ts';

const key = randomBytes(32);

describe('encryptPii / decryptPii', () => {
  it('round-trips text, including non-ASCII and empty strings', () => {
    for (const plain of ['123-45-6789', '1980-02-29', 'Zoë Ñúñez 🦷', '']) {
      expect(decryptPii(key, encryptPii(key, plain))).toBe(plain);
    }
  });

  it('writes the versioned compact format with a fresh IV each time', () => {
    const a = encryptPii(key, '123-45-6789');
    const b = encryptPii(key, '123-45-6789');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('6789');
  });

  it('detects tampering with the data, the tag or the IV', () => {
    const [version, iv, tag, data] = encryptPii(key, '123-45-6789').split('.') as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0]! ^= 1;
      return bytes.toString('base64url');
    };
    for (const altered of [
      [version, iv, tag, flip(data)],
      [version, iv, flip(tag), data],
      [version, flip(iv), tag, data],
    ]) {
      expect(() => decryptPii(key, altered.join('.'))).toThrow(PiiDecryptionError);
    }
  });

  it('fails with another key', () => {
    const ciphertext = encryptPii(key, '123-45-6789');
    expect(() => decryptPii(randomBytes(32), ciphertext)).toThrow(PiiDecryptionError);
  });

  it('refuses unknown formats and keys of the wrong size', () => {
    expect(() => decryptPii(key, '123-45-6789')).toThrow(PiiDecryptionError);
    expect(() => decryptPii(key, encryptPii(key, 'x').replace(/^v1/, 'v2'))).toThrow(PiiDecryptionError);
    expect(() => encryptPii(randomBytes(16), 'x')).toThrow(RangeError);
  });
});

describe('last4', () => {
  it('keeps the last four digits only', () => {
    expect(last4('123-45-6789')).toBe('6789');
    expect(last4('000123456789')).toBe('6789');
    expect(last4('12')).toBe('12');
  });
});
