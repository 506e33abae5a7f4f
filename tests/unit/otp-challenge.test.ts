import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeChallenge, encodeChallenge, hashCode, maskEmail, maskPhone } from '../../server/domain/otp/challenge.ts';
import { newPasscode } from '../../server/identity/secrets.ts';

describe('passcode challenges and codes', () => {
  const secret = randomBytes(32);

  it('round-trips an application and channel through an opaque UUID, different every time', () => {
    const first = encodeChallenge(secret, 1234, 'Sms');
    const second = encodeChallenge(secret, 1234, 'Sms');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
    expect(decodeChallenge(secret, first)).toEqual({ appId: 1234, channel: 'Sms' });
    expect(decodeChallenge(secret, encodeChallenge(secret, 2_147_483_647, 'Email'))).toEqual({ appId: 2_147_483_647, channel: 'Email' });
  });

  it('refuses a forged, altered or foreign challenge', () => {
    const challenge = encodeChallenge(secret, 77, 'Email');
    const altered = `${challenge.slice(0, -1)}${challenge.endsWith('0') ? '1' : '0'}`;
    expect(decodeChallenge(secret, altered)).toBeUndefined();
    expect(decodeChallenge(randomBytes(32), challenge)).toBeUndefined();
    expect(decodeChallenge(secret, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(decodeChallenge(secret, 'not-a-uuid')).toBeUndefined();
  });

  it('hashes codes with a key, per application and channel', () => {
    expect(hashCode(secret, 1, 'Email', '123456')).not.toBe(hashCode(secret, 2, 'Email', '123456'));
    expect(hashCode(secret, 1, 'Email', '123456')).not.toBe(hashCode(randomBytes(32), 1, 'Email', '123456'));
    expect(hashCode(secret, 1, 'Email', '123456')).not.toContain('123456');
  });

  it('draws six-digit codes and masks destinations', () => {
    const codes = new Set(Array.from({ length: 200 }, newPasscode));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskPhone('(512) 555-0142')).toBe('(***) ***-0142');
  });
});
