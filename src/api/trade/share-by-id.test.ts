import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Order } from '../contracts/trading';
import { openOrdersQueryOptions } from './list-open-orders';
import { shareById } from './share-by-id';
import { tradeQueryKey, type TradeKey } from './trade-key';

const order = (id: string, price = '60000'): Order => ({
  id, clientOrderId: null, exchange: 'binance', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'NEW', qty: '0.01', filledQty: '0', price, triggerPrice: null, avgFillPrice: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', bracketId: null, role: null,
});

describe('shareById', () => {
  it('keeps each unchanged record’s object wherever it moved, makes a new one for a changed record, and keeps the list when nothing changed', () => {
    const a = order('a');
    const b = order('b');
    const list = [a, b];
    const prepended = shareById(list, [order('t'), order('a'), order('b')]) as Order[];
    expect(prepended[1]).toBe(a);
    expect(prepended[2]).toBe(b);
    const amended = shareById(list, [order('a', '61000'), order('b')]) as Order[];
    expect(amended[0]).not.toBe(a);
    expect(amended[0]!.price).toBe('61000');
    expect(amended[1]).toBe(b);
    expect(shareById(list, [order('a'), order('b')])).toBe(list);
    expect(shareById(undefined, list)).toBe(list);
  });

  it('is the open orders’ sharing: a row put in front (an order’s TEMPORARY row) leaves the other rows’ objects as they were', () => {
    const client = new QueryClient();
    const k: TradeKey = { apiKeyId: 'k1', keyPassword: 'kp' };
    const observer = new QueryObserver(client, { ...openOrdersQueryOptions(k), enabled: false });
    const unsubscribe = observer.subscribe(() => undefined);
    const a = order('a');
    const b = order('b');
    client.setQueryData(tradeQueryKey.orders('k1'), [a, b]);
    client.setQueryData<Order[]>(tradeQueryKey.orders('k1'), (list = []) => [{ ...order('t'), status: 'TEMPORARY' }, ...list.map((o) => ({ ...o }))]);
    const after = client.getQueryData<Order[]>(tradeQueryKey.orders('k1'))!;
    expect(after.map((o) => o.id)).toEqual(['t', 'a', 'b']);
    expect(after[1]).toBe(a);
    expect(after[2]).toBe(b);
    unsubscribe();
    client.clear();
  });
});
