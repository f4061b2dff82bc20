import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Balance, Order } from '../../../api/contracts/trading';
import { tradeQueryKey } from '../../../api/trade/trade-key';
import { applyStreamMessage } from './account-store';

const order = (id: string, status: Order['status']): Order => ({
  id,
  clientOrderId: null,
  exchange: 'binance',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  status,
  qty: '0.01',
  filledQty: '0',
  price: '60000',
  triggerPrice: null,
  avgFillPrice: null,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  bracketId: null,
  role: null,
});
const balance: Balance = { currency: 'USDT', total: '10000', available: '10000', unrealisedPnl: '0', marginUsed: '0', assets: [] };

describe('the account stream in the query cache', () => {
  it('a snapshot replaces orders, positions and balance; order events add, replace and drop final orders', () => {
    const client = new QueryClient();
    applyStreamMessage(client, 'k1', { type: 'snapshot', apiKeyId: 'k1', orders: [order('a', 'NEW')], positions: [], balance });
    expect(client.getQueryData(tradeQueryKey.orders('k1'))).toEqual([order('a', 'NEW')]);
    expect(client.getQueryData(tradeQueryKey.balance('k1'))).toEqual(balance);
    applyStreamMessage(client, 'k1', { type: 'order', apiKeyId: 'k1', order: order('b', 'NEW') });
    applyStreamMessage(client, 'k1', { type: 'order', apiKeyId: 'k1', order: order('a', 'PARTIALLY_FILLED') });
    expect(client.getQueryData<Order[]>(tradeQueryKey.orders('k1'))?.map((o) => [o.id, o.status])).toEqual([
      ['a', 'PARTIALLY_FILLED'],
      ['b', 'NEW'],
    ]);
    applyStreamMessage(client, 'k1', { type: 'order', apiKeyId: 'k1', order: order('a', 'FILLED') });
    applyStreamMessage(client, 'k1', { type: 'order', apiKeyId: 'k1', order: order('b', 'CANCELED') });
    expect(client.getQueryData(tradeQueryKey.orders('k1'))).toEqual([]);
  });
});
