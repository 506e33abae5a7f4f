import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashCode, maskEmail, maskPhone } from '../../server/domain/otp/challenge.ts';
import { newPasscode } from '../../server/identity/secrets.ts';

describe('passcode codes', () => {
  const secret = randomBytes(32);

  it('hashes codes with a key, per challenge', () => {
    const [one, two] = [randomUUID(), randomUUID()];
    expect(hashCode(secret, one, '123456')).toBe(hashCode(secret, one, '123456'));
    expect(hashCode(secret, one, '123456')).not.toBe(hashCode(secret, two, '123456'));
    expect(hashCode(secret, one, '123456')).not.toBe(hashCode(randomBytes(32), one, '123456'));
    expect(hashCode(secret, one, '123456')).not.toContain('123456');
  });

  it('draws six-digit codes and masks destinations', () => {
    const codes = new Set(Array.from({ length: 200 }, newPasscode));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskPhone('(512) 555-0142')).toBe('(***) ***-0142');
  });
});
