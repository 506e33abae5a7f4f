import { describe, expect, it } from 'vitest';
import { hashPassword, MIN_PASSWORD_LENGTH, PasswordPolicyError, verifyPassword } from '../../server/identity/password.ts';

describe('hashPassword / verifyPassword', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });

  it('stores a self-describing scrypt string with a random salt', async () => {
    const a = await hashPassword('demo-pass-1234');
    const b = await hashPassword('demo-pass-1234');
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('verifies with the parameters stored in the hash', async () => {
    // The same password hashed at a lower cost (ln=10) must still verify after a cost change.
    const hash = await hashPassword('a long enough password');
    const [, , , salt] = hash.split('$');
    const { scryptSync } = await import('node:crypto');
    const key = scryptSync('a long enough password', Buffer.from(salt!, 'base64url'), 32, { N: 1024, r: 8, p: 1 });
    const cheap = `$scrypt$ln=10,r=8,p=1$${salt}$${key.toString('base64url')}`;
    expect(await verifyPassword('a long enough password', cheap)).toBe(true);
  });

  it(`refuses passwords shorter than ${MIN_PASSWORD_LENGTH} characters`, async () => {
    await expect(hashPassword('short-pass1')).rejects.toBeInstanceOf(PasswordPolicyError);
    await expect(hashPassword('exactly12chr')).resolves.toMatch(/^\$scrypt\$/);
  });

  it('answers false for values that are not its hashes, including over-expensive parameters', async () => {
    expect(await verifyPassword('demo-pass-1234', '')).toBe(false);
    expect(await verifyPassword('demo-pass-1234', 'demo-pass-1234')).toBe(false);
    expect(await verifyPassword('demo-pass-1234', '$scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });
});
