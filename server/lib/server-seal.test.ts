import { describe, expect, it } from 'vitest';
import { ServerSealError, serverOpen, serverSeal } from './server-seal';

const SECRET = 'a-server-secret-that-is-long-enough-0001';

describe('server seal (credentials of server-managed brackets)', () => {
  it('opens with the same secret and row, and with nothing else', () => {
    const sealed = serverSeal('{"k":"key","s":"secret"}', SECRET, 'sealed-credentials:v1:key-1:user-1');
    expect(sealed.ciphertext).not.toContain('secret');
    expect(serverOpen(sealed, SECRET, 'sealed-credentials:v1:key-1:user-1')).toBe('{"k":"key","s":"secret"}');
    expect(() => serverOpen(sealed, `${SECRET}x`, 'sealed-credentials:v1:key-1:user-1')).toThrow(ServerSealError);
    expect(() => serverOpen(sealed, SECRET, 'sealed-credentials:v1:key-2:user-1')).toThrow(ServerSealError);
    const tampered = { ...sealed, ciphertext: Buffer.from('x'.repeat(24)).toString('base64') };
    expect(() => serverOpen(tampered, SECRET, 'sealed-credentials:v1:key-1:user-1')).toThrow(ServerSealError);
    // A fresh IV each time: the same value never seals the same way twice.
    expect(serverSeal('same', SECRET, 'a').ciphertext).not.toBe(serverSeal('same', SECRET, 'a').ciphertext);
  });
});
