import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, manualClock, shapeOf, startSim, type SimServer } from './testing';

// The funding and open-interest endpoints the scanner reads (binance premiumIndex, okx funding-rate
// and open-interest): the exchanges' shapes (the fixtures), their rules, and values that agree with
// the tickers the simulator already serves.

const T0 = Date.parse('2026-03-01T12:34:50.000Z');
const clock = manualClock(T0);
let sim: SimServer;
const get = (url: string) => sim.app.inject({ url: `/sim${url}` });
type OkxBody<T> = { code: string; msg: string; data: T[] };

beforeAll(async () => {
  sim = await startSim({ now: clock.now });
});
afterAll(() => sim.close());

describe('binance GET /fapi/v1/premiumIndex', () => {
  it('every symbol (weight 10) or one, in the fixture’s shape; next funding at the next 8 h mark', async () => {
    const all = await get('/binance/fapi/v1/premiumIndex');
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-mbx-used-weight-1m']).toBeDefined();
    const list = all.json<Array<Record<string, unknown>>>();
    expect(shapeOf(list)).toEqual(shapeOf(fixture('binance', 'premium-index-all.json')));
    expect(list.length).toBeGreaterThanOrEqual(19);
    const btc = (await get('/binance/fapi/v1/premiumIndex?symbol=BTCUSDT')).json<Record<string, unknown>>();
    expect(btc).toMatchObject({ symbol: 'BTCUSDT', nextFundingTime: Date.parse('2026-03-01T16:00:00Z'), time: T0 });
    expect(Math.abs(Number(btc.lastFundingRate))).toBeLessThan(0.001);
  });

  it('an unknown or lower-case symbol is -1121', async () => {
    for (const symbol of ['NOPEUSDT', 'btcusdt']) {
      const res = await get(`/binance/fapi/v1/premiumIndex?symbol=${symbol}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    }
  });
});

describe('okx GET /api/v5/public/funding-rate and /open-interest', () => {
  it('funding-rate: instId=ANY lists every SWAP; fundingTime is the coming settlement', async () => {
    const any = (await get('/okx/api/v5/public/funding-rate?instId=ANY')).json<OkxBody<Record<string, string>>>();
    expect(shapeOf(any)).toEqual(shapeOf(fixture('okx', 'funding-rate-any.json')));
    expect(any.data.map((d) => d.instId)).toContain('BTC-USD-SWAP');
    const one = (await get('/okx/api/v5/public/funding-rate?instId=BTC-USDT-SWAP')).json<OkxBody<Record<string, string>>>();
    expect(one.data).toHaveLength(1);
    expect(one.data[0]).toMatchObject({ instId: 'BTC-USDT-SWAP', fundingTime: String(Date.parse('2026-03-01T16:00:00Z')), nextFundingTime: String(Date.parse('2026-03-02T00:00:00Z')) });
    expect((await get('/okx/api/v5/public/funding-rate')).json()).toMatchObject({ code: '50014' });
    expect((await get('/okx/api/v5/public/funding-rate?instId=NOPE-USDT-SWAP')).json()).toMatchObject({ code: '51001' });
  });

  it('open-interest: oi contracts, oiCcy base (× ctVal on linear), oiUsd its value; instType required', async () => {
    const body = (await get('/okx/api/v5/public/open-interest?instType=SWAP')).json<OkxBody<Record<string, string>>>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('okx', 'open-interest-swap.json')));
    const btc = body.data.find((d) => d.instId === 'BTC-USDT-SWAP');
    expect(Number(btc?.oiCcy)).toBeCloseTo(Number(btc?.oi) * 0.01, 6); // ctVal 0.01 BTC
    const last = Number((await get('/okx/api/v5/market/ticker?instId=BTC-USDT-SWAP')).json<OkxBody<Record<string, string>>>().data[0].last);
    expect(Number(btc?.oiUsd) / Number(btc?.oiCcy)).toBeCloseTo(last, 0);
    const inverse = body.data.find((d) => d.instId === 'BTC-USD-SWAP');
    expect(Number(inverse?.oiUsd)).toBeCloseTo(Number(inverse?.oi) * 100, 2); // ctVal 100 USD
    expect((await get('/okx/api/v5/public/open-interest')).json()).toMatchObject({ code: '50014' });
    expect((await get('/okx/api/v5/public/open-interest?instType=SPOT')).json()).toMatchObject({ code: '51000' });
  });
});
