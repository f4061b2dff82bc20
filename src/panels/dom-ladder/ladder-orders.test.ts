import { describe, expect, it } from 'vitest';
import type { Order } from '../../api/contracts/trading';
import { clickOrder, dropAmend, sideProblem } from './ladder-orders';
import { askRow, bidRow, centreOf, ladderGrid, rowStep, sumSide } from './ladder-rows';

const touch = { bid: '100', ask: '100.5' };
const terms = { category: 'linear' as const, contractSize: '1', stepSize: '0.01', minQty: '0.01', maxQty: '10', tickSize: '0.5' };
const order = (patch: Partial<Order>): Order => ({ id: 'o', clientOrderId: null, exchange: 'bybit', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'NEW', qty: '1', filledQty: '0', price: '99', triggerPrice: null, avgFillPrice: null, reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: '', updatedAt: '', bracketId: null, role: null, ...patch });

describe('where the ladder lets an order rest', () => {
  it('a limit rests on its own side of the touch, a stop beyond the other, a take-profit like a limit', () => {
    expect(sideProblem('BUY', 'limit', '100', touch)).toBeNull();
    expect(sideProblem('BUY', 'limit', '100.5', touch)).toMatch(/goes below the best ask 100.5/);
    expect(sideProblem('SELL', 'limit', '100.5', touch)).toBeNull();
    expect(sideProblem('SELL', 'limit', '100', touch)).toMatch(/goes above the best bid 100/);
    expect(sideProblem('BUY', 'stop', '101', touch)).toBeNull();
    expect(sideProblem('BUY', 'stop', '100.5', touch)).toMatch(/buy stop goes above/);
    expect(sideProblem('SELL', 'stop', '99.5', touch)).toBeNull();
    expect(sideProblem('SELL', 'take-profit', '99.5', touch)).toMatch(/sell take-profit goes above/);
    expect(sideProblem('BUY', 'limit', '99', { bid: null, ask: null })).toBe('No order book yet: wait for the prices');
  });

  it('sends the row’s exact price and the size as typed, a stop as its trigger', () => {
    const base = { symbol: 'BTCUSDT', size: '0.05', terms, touch, locked: false, position: undefined };
    expect(clickOrder({ ...base, side: 'BUY', stop: false, price: '99.5' }).body).toMatchObject({ type: 'LIMIT', price: '99.5', qty: '0.05' });
    expect(clickOrder({ ...base, side: 'SELL', stop: true, price: '99.5' }).body).toMatchObject({ type: 'STOP_MARKET', triggerPrice: '99.5' });
    expect(clickOrder({ ...base, size: '0.005', side: 'BUY', stop: false, price: '99.5' }).problem).toBe('Size: Use a multiple of 0.01');
  });

  it('a dropped chip moves a waiting stop’s trigger and a resting order’s price; the same row or an unacknowledged order sends nothing', () => {
    expect(dropAmend(order({}), '98', touch, undefined)).toEqual({ body: { price: '98' } });
    expect(dropAmend(order({}), '99', touch, undefined)).toBeNull();
    expect(dropAmend(order({ status: 'TEMPORARY' }), '98', touch, undefined)?.problem).toMatch(/not acknowledged/);
    const stop = order({ side: 'SELL', type: 'STOP_MARKET', status: 'UNTRIGGERED', price: null, triggerPrice: '95' });
    expect(dropAmend(stop, '96', touch, undefined)).toEqual({ body: { triggerPrice: '96' } });
    expect(dropAmend(stop, '101', touch, undefined)?.problem).toMatch(/sell stop goes below/);
  });
});

describe('the rows', () => {
  it('groups the book down for bids and up for asks, by the tick times the grouping', () => {
    const step = rowStep('0.5', 2);
    expect(step).toBe('1');
    const grid = ladderGrid(centreOf(100.2, step), step, 5, '0.5');
    expect(grid.prices).toEqual(['102', '101', '100', '99', '98']);
    expect(grid.labels[0]).toBe('102.0');
    expect(bidRow(grid, 99.5, 5)).toBe(3);
    expect(askRow(grid, 99.5, 5)).toBe(2);
    const sums = new Float64Array(5);
    const lv = (p: number, s: number) => ({ price: String(p), size: String(s), p, s });
    expect(sumSide([lv(100, 1), lv(99.5, 2), lv(99, 0.5), lv(50, 9)], grid, sums, true)).toBe(2.5);
    expect([...sums]).toEqual([0, 0, 1, 2.5, 0]);
  });
});
