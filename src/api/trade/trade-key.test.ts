import { describe, expect, it } from 'vitest';
import { newClientOrderId } from './trade-key';

describe('newClientOrderId', () => {
  it('client order ids are letters and digits, at most 32, never repeated', () => {
    const ids = new Set(Array.from({ length: 200 }, newClientOrderId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{1,32}$/);
  });
});
