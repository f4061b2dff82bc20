import { describe, expect, it } from 'vitest';
import { amendOrderBodySchema, bracketBodySchema, clientOrderIdSchema, closePositionBodySchema, placeOrderBodySchema, streamClientMessageSchema } from './trading';

const firstIssue = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error ? { path: r.error.issues[0].path.join('.'), message: r.error.issues[0].message } : null;

describe('trading contracts', () => {
  it('an order carries exactly the prices its type needs, naming the field otherwise', () => {
    expect(placeOrderBodySchema.parse({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.01' })).toMatchObject({ reduceOnly: false, postOnly: false, timeInForce: 'GTC' });
    expect(firstIssue(placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.01' }))).toEqual({ path: 'price', message: 'A LIMIT order needs a price' });
    expect(firstIssue(placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', qty: '0.01' }))).toEqual({ path: 'triggerPrice', message: 'A STOP_MARKET order needs a trigger price' });
    expect(firstIssue(placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.01', postOnly: true }))).toEqual({ path: 'postOnly', message: 'Only a limit order can be post-only' });
    expect(firstIssue(placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: 0.01 }))?.path).toBe('qty');
    expect(firstIssue(placeOrderBodySchema.safeParse({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0' }))).toEqual({ path: 'qty', message: 'Must be greater than 0' });
  });

  it('a bracket has 1–5 take-profits whose sizes add up to 100%', () => {
    const base = { symbol: 'BTCUSDT', side: 'BUY', qty: '0.1', entry: { type: 'MARKET' }, stopLoss: { triggerPrice: '64000' } } as const;
    expect(bracketBodySchema.safeParse({ ...base, takeProfits: [{ price: '66000', qtyPercent: 33.33 }, { price: '67000', qtyPercent: 66.67 }] }).success).toBe(true);
    expect(firstIssue(bracketBodySchema.safeParse({ ...base, takeProfits: [{ price: '66000', qtyPercent: 50 }] }))).toEqual({ path: 'takeProfits', message: 'Take-profit sizes must add up to 100%' });
    expect(firstIssue(bracketBodySchema.safeParse({ ...base, takeProfits: Array.from({ length: 6 }, () => ({ price: '66000', qtyPercent: 100 / 6 })) }))?.message).toBe('At most 5 take-profits');
    expect(firstIssue(bracketBodySchema.safeParse({ ...base, entry: { type: 'LIMIT' }, takeProfits: [{ price: '66000', qtyPercent: 100 }] }))).toEqual({ path: 'entry.price', message: 'A LIMIT entry needs a price' });
  });

  it('amend needs something to change; a limit close needs a price', () => {
    expect(amendOrderBodySchema.safeParse({}).success).toBe(false);
    expect(amendOrderBodySchema.safeParse({ price: '65000.5' }).success).toBe(true);
    expect(firstIssue(closePositionBodySchema.safeParse({ symbol: 'XBTUSD', percent: 50, type: 'LIMIT' }))).toEqual({ path: 'price', message: 'A limit close needs a price' });
  });

  it('client order ids fit every exchange: letters and digits, at most 32', () => {
    expect(clientOrderIdSchema.safeParse('ct1a2b3c').success).toBe(true);
    expect(clientOrderIdSchema.safeParse('has-dash').success).toBe(false);
    expect(clientOrderIdSchema.safeParse('x'.repeat(33)).success).toBe(false);
  });

  it('stream client messages', () => {
    expect(streamClientMessageSchema.safeParse({ op: 'subscribe', apiKeyId: '00000000-0000-4000-8000-000000000000', keyPassword: 'pw' }).success).toBe(true);
    expect(streamClientMessageSchema.safeParse({ op: 'subscribe', apiKeyId: 'nope', keyPassword: 'pw' }).success).toBe(false);
  });
});
