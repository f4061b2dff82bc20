import { describe, expect, it } from 'vitest';
import { pnlAt } from '../../api/contracts/risk';
import type { Order, Position } from '../../api/contracts/trading';
import { priceLineLabel } from '../../engine/model/scene';
import { tradeLines } from './trade-lines';

const position = (p: Partial<Position>): Position => ({
  exchange: 'okx',
  symbol: 'BTCUSD',
  side: 'BUY',
  size: '10',
  baseQty: '0.01639344',
  notional: '0.01639344',
  entryPrice: '60000',
  markPrice: '61000',
  liquidationPrice: null,
  breakEvenPrice: '60000',
  unrealisedPnl: '0.000273224044',
  realisedPnl: '0',
  leverage: '10',
  marginMode: 'CROSS',
  margin: '0.0016',
  category: 'inverse',
  ...p,
});
const takeProfit = (price: string, qty: string): Order => ({
  id: 'tp',
  clientOrderId: null,
  exchange: 'okx',
  symbol: 'BTCUSD',
  side: 'SELL',
  type: 'TAKE_PROFIT',
  status: 'UNTRIGGERED',
  qty,
  filledQty: '0',
  price,
  triggerPrice: price,
  avgFillPrice: null,
  reduceOnly: true,
  postOnly: false,
  timeInForce: 'GTC',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  bracketId: null,
  role: 'take-profit',
});

describe('trading lines on the chart (issue 22: one exact PnL per contract kind)', () => {
  it('an OKX inverse target counts the 100 USD contract: its PnL is the Positions figure at that price, in BTC with its digits', () => {
    const pos = position({});
    const [line] = tradeLines([takeProfit('61000', '10')], pos, { instrument: { contractValue: '100', settle: 'BTC' } });
    // The position's own unrealised PnL at the mark (61,000) — the same price as the target.
    expect(line!.pnl).toBe(Number(pos.unrealisedPnl));
    expect(line!.pnl).toBe(Number(pnlAt({ terms: { category: 'inverse', contractSize: '100' }, side: 'BUY', qty: '10', entry: '60000', exit: '61000' })));
    expect(priceLineLabel(line!)).toBe('TP SELL 10 · +0.00027322 BTC');
    const entry = tradeLines([], pos, { instrument: { contractValue: '100', settle: 'BTC' } }).find((l) => l.id === 'position:entry')!;
    expect(priceLineLabel(entry)).toBe('BUY 10 · +0.00027322 BTC');
  });

  it('a linear target: size × contract size (OKX 0.01 BTC) × move, in the quote with two decimals', () => {
    const pos = position({ symbol: 'BTCUSDT', category: 'linear', size: '3', baseQty: '0.03', unrealisedPnl: '30' });
    const [line] = tradeLines([{ ...takeProfit('61000', '3'), symbol: 'BTCUSDT' }], pos);
    expect(line!.pnl).toBe(30);
    expect(priceLineLabel(line!)).toBe('TP SELL 3 · +30.00');
  });

  it('the coin is the instrument’s settle currency, not a guess from the symbol (an ETH-margined ETHUSD, BitMEX XBT)', () => {
    const eth = position({ symbol: 'ETHUSD', entryPrice: '3000', markPrice: '3000', unrealisedPnl: '0' });
    const [line] = tradeLines([{ ...takeProfit('3100', '10'), symbol: 'ETHUSD' }], eth, { instrument: { contractValue: '10', settle: 'ETH' } });
    expect(priceLineLabel(line!)).toMatch(/ ETH$/);
    const xbt = tradeLines([], position({ symbol: 'XBTUSD' }), { instrument: { contractValue: '1', settle: 'XBT' } }).find((l) => l.id === 'position:entry')!;
    expect(priceLineLabel(xbt)).toMatch(/ XBT$/);
  });

  it('a BitMEX quanto (ETHUSD, settled in XBT): qty × 0.000001 XBT × move, with satoshis and its coin', () => {
    const eth = position({ symbol: 'ETHUSD', category: 'linear', size: '1000', baseQty: '0.001', entryPrice: '3000', markPrice: '3000', unrealisedPnl: '0' });
    const [line] = tradeLines([{ ...takeProfit('3100', '1000'), symbol: 'ETHUSD' }], eth, { instrument: { contractValue: '0.000001', settle: 'XBT', quanto: true } });
    // 1000 contracts × 100 satoshi × 100 USD = 0.1 XBT.
    expect(line!.pnl).toBe(0.1);
    expect(priceLineLabel(line!)).toBe('TP SELL 1000 · +0.10000000 XBT');
  });
});
