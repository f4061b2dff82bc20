import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from './jwt';
import { hashPassword, verifyPassword } from './password';
import { randomCode } from './tokens';

const SECRET = 'a-test-secret-that-is-long-enough-123';
const claims = { sub: '7f1c2d8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f', role: 'user' as const, sv: 0, fam: '0b7e5b8a-6c1d-4f2e-9a3b-1c2d3e4f5a6b' };

describe('access tokens', () => {
  it('verify within 15 minutes and not after', () => {
    const now = 1_800_000_000;
    const token = signAccessToken(SECRET, claims, now);
    expect(verifyAccessToken(SECRET, token, now + 60)).toMatchObject({ ...claims, exp: now + 900 });
    expect(verifyAccessToken(SECRET, token, now + 900)).toBeNull();
  });

  it('reject another secret, a changed payload and alg=none', () => {
    const token = signAccessToken(SECRET, claims);
    expect(verifyAccessToken('another-secret-that-is-long-enough-xx', token)).toBeNull();
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const admin = Buffer.from(JSON.stringify({ ...payload, role: 'admin' })).toString('base64url');
    expect(verifyAccessToken(SECRET, `${h}.${admin}.${s}`)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyAccessToken(SECRET, `${none}.${p}.`)).toBeNull();
  });
});

describe('passwords', () => {
  it('hash with a per-user salt and verify only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});

describe('randomCode', () => {
  it('uses only unambiguous symbols', () => {
    const code = Array.from({ length: 50 }, () => randomCode(10)).join('');
    expect(code).toMatch(/^[A-HJKMNP-Z2-9]+$/);
    expect(new Set(Array.from({ length: 50 }, () => randomCode(10))).size).toBe(50);
  });
});
