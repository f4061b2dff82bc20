import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexSync } from './sha256';
import { storageNameFor } from './storage';

const VECTORS: [string, string][] = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
];

describe('sha256', () => {
  it.each(VECTORS)('hashes %j with Web Crypto and with the fallback identically', async (text, hex) => {
    expect(await sha256Hex(text)).toBe(hex);
    expect(sha256HexSync(new TextEncoder().encode(text))).toBe(hex);
  });

  it('agrees with Web Crypto across block-boundary lengths and non-ASCII text', async () => {
    for (const length of [55, 56, 63, 64, 65, 119, 120, 1000]) {
      const text = 'é'.repeat(length);
      expect(sha256HexSync(new TextEncoder().encode(text))).toBe(await sha256Hex(text));
    }
  });
});

describe('storageNameFor', () => {
  it('derives the per-user name from the SHA-256 of the user id', async () => {
    expect(await storageNameFor('user_settings', 'abc')).toBe('user_settings_ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await storageNameFor('drawing_settings', 'abc')).toBe('drawing_settings_ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('uses the generic name when signed out', async () => {
    expect(await storageNameFor('user_settings', null)).toBe('user_settings');
  });

  it('never puts the user id itself in the name', async () => {
    const id = '5b0e8a36-4a54-4c2e-9a3b-1f2d3c4b5a69';
    const name = await storageNameFor('user_settings', id);
    expect(name).not.toContain(id);
    expect(name).toMatch(/^user_settings_[0-9a-f]{64}$/);
  });
});
