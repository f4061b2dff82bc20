import { describe, expect, it } from 'vitest';
import { maskKey, open, seal, WrongPasswordError, type KdfParams } from './secret-box';

// Cheap parameters keep the unit test fast; the default (N = 2^15) is covered by the route tests.
const FAST: KdfParams = { N: 1024, r: 8, p: 1 };

describe('secret box (AES-256-GCM under scrypt)', () => {
  it('opens with the password and the same binding, and stores no plaintext', async () => {
    const sealed = await seal('{"s":"top-secret"}', 'pw-12345678', 'row-1', FAST);
    expect(JSON.stringify(sealed)).not.toContain('top-secret');
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(sealed.salt, 'base64')).toHaveLength(16);
    expect(await open(sealed, 'pw-12345678', 'row-1')).toBe('{"s":"top-secret"}');
  });

  it('uses a fresh salt and IV every time', async () => {
    const [a, b] = await Promise.all([seal('x', 'pw-12345678', 'r', FAST), seal('x', 'pw-12345678', 'r', FAST)]);
    expect(a.salt).not.toBe(b.salt);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses a wrong password, another binding, or a tampered ciphertext', async () => {
    const sealed = await seal('secret', 'pw-12345678', 'row-1', FAST);
    await expect(open(sealed, 'pw-12345679', 'row-1')).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(open(sealed, 'pw-12345678', 'row-2')).rejects.toBeInstanceOf(WrongPasswordError);
    const flipped = Buffer.from(sealed.ciphertext, 'base64');
    flipped[0] ^= 1;
    await expect(open({ ...sealed, ciphertext: flipped.toString('base64') }, 'pw-12345678', 'row-1')).rejects.toBeInstanceOf(WrongPasswordError);
  });

  it('masks keys so they can be told apart but not used', () => {
    expect(maskKey('dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83')).toBe('dbef…cc83');
    expect(maskKey('sim-key-a4ed9dc9')).toBe('sim-…9dc9');
    expect(maskKey('abcdefghij')).toBe('ab…ij');
    expect(maskKey('short')).toBe('…');
  });
});
