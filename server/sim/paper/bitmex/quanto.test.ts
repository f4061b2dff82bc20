/**
 * BitMEX quanto ETHUSD on the paper venue: USD-priced, margined and settled in XBt. Value = contracts ×
 * 100 satoshi × price; PnL = contracts × 0.000001 XBT × (exit − entry), in satoshis exactly; fees in XBt
 * from the XBt balance (the USDt wallet is untouched).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, startSim, type SimServer } from '../../testing';
import { bitmexClient } from './testing';

const T0 = 1717200000000;
const SEED = 'paper-quanto';
type Row = Record<string, unknown>;

let sim: SimServer;
const clock = manualClock(T0 + 500);
let n = 0;
const client = (label: string) => bitmexClient(sim.app, `sim-${label}-${++n}`, { seed: SEED, now: clock.now });

beforeAll(async () => {
  sim = await startSim({ seed: SEED, now: clock.now });
});
afterAll(() => sim.close());

describe('bitmex paper venue: quanto ETHUSD', () => {
  it('buy 1000 at P1, sell 1000 at P2: realised PnL = 1000 × 0.000001 × (P2 − P1) XBT exactly, fees 0.075 % of the XBt value', async () => {
    const c = client('q');
    const buy = await c.call<Row>('POST', '/order', { symbol: 'ETHUSD', side: 'Buy', orderQty: 1000, ordType: 'Market' });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect(buy.body).toMatchObject({ symbol: 'ETHUSD', currency: 'USD', settlCurrency: 'XBt', ordStatus: 'Filled' });
    const entry = Number(buy.body.avgPx);

    // Open: the position is in XBt, unrealised = 1000 × 100 × (mark − entry) satoshi.
    const [pos] = (await c.call<Row[]>('GET', '/position?filter=' + encodeURIComponent(JSON.stringify({ symbol: 'ETHUSD' })))).body;
    expect(pos).toMatchObject({ symbol: 'ETHUSD', currency: 'XBt', underlying: 'ETH', quoteCurrency: 'USD', currentQty: 1000, avgEntryPrice: entry });
    const mark = Number(pos.markPrice);
    expect(pos.unrealisedPnl).toBe(Math.round(1000 * 100 * (mark - entry)));
    expect(pos.markValue).toBe(Math.round(1000 * 100 * mark));

    clock.advance(6 * 60 * 60_000);
    const sell = await c.call<Row>('POST', '/order', { symbol: 'ETHUSD', side: 'Sell', orderQty: 1000, ordType: 'Market' });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    const exit = Number(sell.body.avgPx);
    expect(exit).not.toBe(entry);

    const execs = (await c.call<Row[]>('GET', '/execution/tradeHistory?symbol=ETHUSD&reverse=false')).body;
    expect(execs.map((e) => [e.side, e.lastQty, e.settlCurrency, e.currency])).toEqual([
      ['Buy', 1000, 'XBt', 'USD'],
      ['Sell', 1000, 'XBt', 'USD'],
    ]);
    // execCost: the fill's value, contracts × 100 × price satoshi (negative for a buy).
    expect(execs[0].execCost).toBe(-Math.round(1000 * 100 * entry));
    expect(execs[1].execCost).toBe(Math.round(1000 * 100 * exit));
    // Fees: taker 0.075 % of the XBt value (to the satoshi).
    const fee = (px: number) => 1000 * 100 * px * 0.00075;
    expect(Math.abs(Number(execs[0].execComm) - fee(entry))).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(execs[1].execComm) - fee(exit))).toBeLessThanOrEqual(1);
    // The closing execution's realisedPnl is the gross PnL less its fee, in satoshis, exactly.
    const gross = Math.round(1000 * 100 * (exit - entry)); // 0.05 ticks × 1e5 sat: an integer
    expect(Number(execs[1].realisedPnl)).toBe(gross - Number(execs[1].execComm));

    // The XBt wallet moved by exactly PnL − fees; USDt untouched.
    const m = (await c.call<Row>('GET', '/user/margin?currency=XBt')).body;
    expect(Number(m.walletBalance)).toBe(1e8 + gross - Number(execs[0].execComm) - Number(execs[1].execComm));
    const usdt = (await c.call<Row>('GET', '/user/margin?currency=USDt')).body;
    expect(Number(usdt.walletBalance)).toBe(10_000 * 1e6);
    const [flat] = (await c.call<Row[]>('GET', '/position?filter=' + encodeURIComponent(JSON.stringify({ symbol: 'ETHUSD' })))).body;
    expect(flat).toMatchObject({ currentQty: 0, currency: 'XBt' });
  });

  it('a short quanto position gains when the price falls, in XBt', async () => {
    const c = client('s');
    const sell = await c.call<Row>('POST', '/order', { symbol: 'ETHUSD', side: 'Sell', orderQty: 500, ordType: 'Market' });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    const [pos] = (await c.call<Row[]>('GET', '/position')).body;
    expect(pos).toMatchObject({ symbol: 'ETHUSD', currentQty: -500, currency: 'XBt' });
    expect(pos.unrealisedPnl).toBe(Math.round(-500 * 100 * (Number(pos.markPrice) - Number(pos.avgEntryPrice))));
  });
});
