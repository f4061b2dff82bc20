/**
 * The BitMEX connector on a quanto position (ETHUSD: USD-priced, settled in XBt, 0.000001 XBT per contract
 * per USD) through the simulator's paper venue: category linear, money in XBT (satoshis converted
 * exactly), unrealised PnL = qty × 0.000001 × (mark − entry), baseQty ÷ size = the contract value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, cmp, dec, mul, sub, type Decimal } from '../../../src/api/contracts/decimal';
import { manualClock, simTestKey, startSim, type SimServer } from '../../sim/testing';
import { ExchangeClock, RateGate, type ConnectorContext, type TradingInstrument } from '../trading';
import { BitmexTrading } from './trading';

const T0 = 1717200000000;
const SEED = 'connector-quanto';
const ETHUSD: TradingInstrument = {
  symbol: 'ETHUSD',
  exchangeSymbol: 'ETHUSD',
  base: 'ETH',
  quote: 'USD',
  settle: 'XBT',
  category: 'linear',
  quanto: true,
  tickSize: '0.05',
  stepSize: '1',
  minQty: '1',
  maxQty: '10000000',
  contractValue: '0.000001',
};

let sim: SimServer;
/** Equal as numbers, whatever the decimal's scale ("0.0036" = "0.00360000"). */
const same = (actual: string, expected: Decimal) => expect(cmp(dec(actual), expected), `${actual}`).toBe(0);
const clock = manualClock(T0 + 500);

function connector(apiKey: string): BitmexTrading {
  const ctx: ConnectorContext = {
    transport: async (req) => {
      const res = await sim.app.inject({ method: req.method, url: `/sim/bitmex${req.path}`, headers: req.headers, ...(req.body !== undefined ? { payload: req.body } : {}) });
      return { status: res.statusCode, text: res.body, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), String(v)])) };
    },
    creds: { apiKey, apiSecret: simTestKey(sim.app, apiKey, 'bitmex').secret },
    clock: new ExchangeClock(clock.now),
    gate: new RateGate('bitmex', clock.now),
    instrument: (s) => (s.toUpperCase() === 'ETHUSD' ? ETHUSD : undefined),
  };
  return new BitmexTrading(ctx);
}

beforeAll(async () => {
  sim = await startSim({ seed: SEED, now: clock.now });
});
afterAll(() => sim.close());

describe('bitmex connector: quanto ETHUSD through the paper venue', () => {
  it('a long 1000 ETHUSD: linear, unrealised = 1000 × 0.000001 × (mark − entry) XBT, fees and balance in XBT', async () => {
    const c = connector('sim-quanto-1');
    const o = await c.place({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', qty: '1000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'q-1' });
    expect(o).toMatchObject({ symbol: 'ETHUSD', status: 'FILLED', qty: '1000', filledQty: '1000' });
    clock.advance(30 * 60_000);
    const [p] = await c.positions(ETHUSD);
    expect(p).toMatchObject({ symbol: 'ETHUSD', side: 'BUY', size: '1000', category: 'linear', baseQty: '0.001' });
    const pnl = mul(mul(dec('1000'), dec('0.000001')), sub(dec(p.markPrice), dec(p.entryPrice)));
    same(p.unrealisedPnl, pnl);
    // The chart's contract value: baseQty ÷ size = 0.000001.
    expect(Number(p.baseQty) / Number(p.size)).toBeCloseTo(0.000001, 12);
    // Notional: the XBT value at the mark (contracts × 0.000001 × mark).
    same(p.notional, mul(dec('0.001'), dec(p.markPrice)));
    expect(Number(p.margin)).toBeGreaterThan(0);

    const fills = await c.fills(ETHUSD);
    expect(fills.data).toHaveLength(1);
    expect(fills.data[0]).toMatchObject({ side: 'BUY', qty: '1000', feeCurrency: 'XBT' });
    // Taker 0.075 % of the XBt value (1000 × 0.000001 × price XBT), to the satoshi.
    expect(Math.abs(Number(fills.data[0].fee) - 0.001 * Number(fills.data[0].price) * 0.00075)).toBeLessThanOrEqual(1e-8);

    const b = await c.balance();
    expect(b.currency).toBe('XBT');
    expect(b.unrealisedPnl).toBe(p.unrealisedPnl);
    // Margin balance = the 1 XBT start − the opening fee + the unrealised PnL.
    same(b.total, add(sub(dec('1'), dec(fills.data[0].fee)), dec(p.unrealisedPnl)));
  });

  it('closing: realised PnL = 1000 × 0.000001 × (exit − entry) XBT less the closing fee', async () => {
    const c = connector('sim-quanto-2');
    await c.place({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', qty: '1000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'q-2' });
    clock.advance(45 * 60_000);
    await c.place({ symbol: 'ETHUSD', side: 'SELL', type: 'MARKET', qty: '1000', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'q-3' });
    const { data } = await c.fills(ETHUSD);
    const [close, open] = data; // newest first
    expect([close.side, open.side]).toEqual(['SELL', 'BUY']);
    const gross = mul(dec('0.001'), sub(dec(close.price), dec(open.price)));
    same(close.realisedPnl, sub(gross, dec(close.fee)));
    expect(await c.positions(ETHUSD)).toEqual([]);
  });
});
