/**
 * Proof that real third-party clients work against the simulator with only their base URLs
 * changed: ccxt (REST) and ccxt pro (WebSocket) for all four exchanges — loadMarkets, fetchOHLCV,
 * fetchTicker and watchOHLCV, parsed by ccxt's own per-exchange code.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimServer } from './testing';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim({ pushIntervalMs: 100 });
});
afterAll(() => sim.close());

type Client = InstanceType<typeof ccxt.Exchange>;

function clients(): Array<{ name: string; symbol: string; rest: Client; ws: Client; tick: number; contractSize: number }> {
  const http = sim.base;
  const ws = sim.ws;
  const binanceApi = {
    fapiPublic: `${http}/sim/binance/fapi/v1`,
    fapiPublicV2: `${http}/sim/binance/fapi/v2`,
    fapiPublicV3: `${http}/sim/binance/fapi/v3`,
  };
  // Client-side throttling only (BitMEX's is 2 s per call): nothing about the protocol changes.
  const opts = { enableRateLimit: false };
  const bybitApi = { spot: `${http}/sim/bybit`, futures: `${http}/sim/bybit`, v2: `${http}/sim/bybit`, public: `${http}/sim/bybit`, private: `${http}/sim/bybit` };
  return [
    {
      name: 'binance',
      symbol: 'BTC/USDT:USDT',
      tick: 0.1,
      contractSize: 1,
      rest: new ccxt.binanceusdm({ ...opts, urls: { api: binanceApi } }),
      // ccxt rewrites the legacy `/ws` to the routed `/market/ws` itself (trap 11)
      ws: new ccxt.pro.binanceusdm({ ...opts, urls: { api: { ...binanceApi, ws: { future: `${ws}/sim/binance/ws` } } } }),
    },
    {
      name: 'bybit',
      symbol: 'BTC/USDT:USDT',
      tick: 0.1,
      contractSize: 1,
      rest: new ccxt.bybit({ ...opts, urls: { api: bybitApi } }),
      ws: new ccxt.pro.bybit({ ...opts, urls: { api: { ...bybitApi, ws: { public: { linear: `${ws}/sim/bybit/v5/public/linear`, inverse: `${ws}/sim/bybit/v5/public/inverse` } } } } }),
    },
    {
      name: 'bitmex',
      symbol: 'BTC/USD:BTC',
      tick: 0.5,
      // ccxt reads |multiplier| of an inverse BitMEX contract (−1e8 for XBTUSD, as on the real record)
      contractSize: 100_000_000,
      rest: new ccxt.bitmex({ ...opts, urls: { api: { public: `${http}/sim/bitmex`, private: `${http}/sim/bitmex` } } }),
      ws: new ccxt.pro.bitmex({ ...opts, urls: { api: { public: `${http}/sim/bitmex`, private: `${http}/sim/bitmex`, ws: `${ws}/sim/bitmex/realtime` } } }),
    },
    {
      name: 'okx',
      symbol: 'BTC/USDT:USDT',
      tick: 0.1,
      contractSize: 0.01,
      rest: new ccxt.okx({ ...opts, urls: { api: { rest: `${http}/sim/okx` } } }),
      ws: new ccxt.pro.okx({ ...opts, urls: { api: { rest: `${http}/sim/okx`, ws: `${ws}/sim/okx/ws/v5` } } }),
    },
  ];
}

describe.each(['binance', 'bybit', 'bitmex', 'okx'])('ccxt against the %s sim', (name) => {
  let c: ReturnType<typeof clients>[number];
  beforeAll(() => {
    c = clients().find((x) => x.name === name)!;
  });
  afterAll(async () => {
    await c.ws.close();
  });

  it('loadMarkets: the BTC perpetual with the fixture tick size and contract size', async () => {
    const markets = await c.rest.loadMarkets();
    const m = markets[c.symbol]!;
    expect(m).toBeDefined();
    expect(m.swap).toBe(true);
    expect(m.precision.price).toBe(c.tick);
    expect(m.contractSize).toBe(c.contractSize);
    expect(Object.values(markets).filter((x) => x?.swap).length).toBeGreaterThanOrEqual(19);
  });

  it('fetchOHLCV: 5 ascending 1m candles ending now, OHLC consistent', async () => {
    const candles = await c.rest.fetchOHLCV(c.symbol, '1m', undefined, 5);
    expect(candles.length).toBeGreaterThanOrEqual(4);
    const times = candles.map((k) => k[0] as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(60_000);
    expect(Math.abs((times[times.length - 1] as number) - Date.now())).toBeLessThan(3 * 60_000);
    for (const [, o, h, l, cl, v] of candles) {
      expect(h).toBeGreaterThanOrEqual(Math.max(o as number, cl as number));
      expect(l).toBeLessThanOrEqual(Math.min(o as number, cl as number));
      expect(v).toBeGreaterThan(0);
      expect(o).toBeGreaterThan(10_000);
    }
  });

  it('fetchOHLCV with since: pages forward from that time', async () => {
    const since = Math.floor((Date.now() - 3 * 86_400_000) / 3_600_000) * 3_600_000;
    const candles = await c.rest.fetchOHLCV(c.symbol, '1h', since, 3);
    expect(candles.map((k) => k[0])).toEqual([since, since + 3_600_000, since + 7_200_000]);
  });

  it('fetchTicker: last price, 24h high/low around it', async () => {
    const t = await c.rest.fetchTicker(c.symbol);
    expect(t.symbol).toBe(c.symbol);
    expect(t.last).toBeGreaterThan(10_000);
    expect(t.high).toBeGreaterThanOrEqual(t.last as number);
    expect(t.low).toBeLessThanOrEqual(t.last as number);
  });

  it('watchOHLCV (ccxt pro): live candles arrive over the exchange WebSocket', async () => {
    // ccxt only opens plain ws:// (no TLS, as on loopback) after loading its agent.
    await c.ws.loadHttpProxyAgent();
    await c.ws.loadMarkets();
    const first = await c.ws.watchOHLCV(c.symbol, '1m');
    expect(first.length).toBeGreaterThan(0);
    const last = first[first.length - 1];
    expect(Math.abs((last[0] as number) - Date.now())).toBeLessThan(3 * 60_000);
    expect(last[4]).toBeGreaterThan(10_000);
  });
});
