import { describe, expect, it } from 'vitest';
import { placeOrderBodySchema } from './contracts/trading';
import { errorMessage, fieldErrors } from './errors';

describe('errors the client shows', () => {
  it('a body the contract refuses before sending: each problem at its field, in words — never the raw issue list', () => {
    const r = placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.01', price: '0' });
    expect(r.success).toBe(false);
    const err = r.error!;
    expect(fieldErrors(err)).toEqual({ price: 'Must be greater than 0' });
    expect(errorMessage(err, 'fallback')).toBe('price: Must be greater than 0');
    expect(errorMessage(err, 'fallback')).not.toContain('"code"');
  });
});
