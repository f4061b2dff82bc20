import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWs, fixture, has, manualClock, shapeOf, startSim, type SimServer } from '../testing';

const T0 = Date.parse('2026-03-01T12:34:50.000Z');
const clock = manualClock(T0);
let sim: SimServer;
const get = (url: string) => sim.app.inject({ url: `/sim/bitmex${url}` });
type Bin = { timestamp: string; open: number; close: number; high: number; volume: number; homeNotional: number; turnover: number };

beforeAll(async () => {
  sim = await startSim({ now: clock.now });
});
afterAll(() => sim.close());

describe('bitmex sim REST', () => {
  it('trade/bucketed: fixture shape, JSON numbers, oldest first, timestamp = bucket END, open = previous close', async () => {
    const res = await get('/api/v1/trade/bucketed?binSize=1h&symbol=XBTUSD&partial=false&count=5&startTime=2026-02-01T00:00:00.000Z');
    expect(res.statusCode).toBe(200);
    const bins = res.json<Bin[]>();
    expect(shapeOf(bins)).toEqual(shapeOf(fixture('bitmex', 'trade-bucketed-1h.json')));
    // startTime filters on the END timestamp: the first bin covers 23:00–00:00
    expect(bins.map((b) => b.timestamp)).toEqual(['2026-02-01T00:00:00.000Z', '2026-02-01T01:00:00.000Z', '2026-02-01T02:00:00.000Z', '2026-02-01T03:00:00.000Z', '2026-02-01T04:00:00.000Z']);
    for (let i = 1; i < bins.length; i++) expect(bins[i].open).toBe(bins[i - 1].close);
    // XBTUSD: volume in USD contracts, homeNotional in XBT, turnover in satoshi
    expect(bins[0].homeNotional).toBeCloseTo(bins[0].turnover / 1e8, 6);
    expect(bins[0].homeNotional).toBeCloseTo(bins[0].volume / bins[0].close, -1);
  });

  it('trade/bucketed: reverse=true gives the newest closed bins; partial=true adds the forming one', async () => {
    const closed = (await get('/api/v1/trade/bucketed?binSize=1m&symbol=XBTUSD&count=2&reverse=true')).json<Bin[]>();
    expect(closed.map((b) => b.timestamp)).toEqual(['2026-03-01T12:34:00.000Z', '2026-03-01T12:33:00.000Z']);
    const partial = (await get('/api/v1/trade/bucketed?binSize=1m&symbol=XBTUSD&count=2&reverse=true&partial=true')).json<Bin[]>();
    expect(partial[0].timestamp).toBe('2026-03-01T12:35:00.000Z');
  });

  it('trade/bucketed: validation errors in the documented shape; unknown symbol is an empty list', async () => {
    const bad = await get('/api/v1/trade/bucketed?binSize=15m&symbol=XBTUSD');
    expect(bad.statusCode).toBe(400);
    expect(shapeOf(bad.json())).toEqual(shapeOf(fixture('bitmex', 'error-not-found.json')));
    expect((await get('/api/v1/trade/bucketed?binSize=1m&symbol=XBTUSD&count=1001')).statusCode).toBe(400);
    expect((await get('/api/v1/trade/bucketed?binSize=1m&symbol=NOPE')).json()).toEqual([]);
  });

  it('udf/history: parallel arrays in seconds like the fixture; no_data with nextTime', async () => {
    const res = await get('/api/udf/history?symbol=XBTUSD&resolution=60&from=1769904000&to=1769918400');
    const body = res.json<{ s: string; t: number[]; o: number[]; c: number[] }>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('bitmex', 'udf-history-60.json')));
    expect(body.t).toEqual([1769904000, 1769907600, 1769911200, 1769914800, 1769918400]);
    // t = bar open: the first UDF bar is the bucketed bin whose END is one hour later
    const [bin] = (await get('/api/v1/trade/bucketed?binSize=1h&symbol=XBTUSD&count=1&startTime=2026-02-01T01:00:00.000Z')).json<Bin[]>();
    expect(bin.timestamp).toBe('2026-02-01T01:00:00.000Z');
    expect(body.o[0]).toBe(bin.open);
    expect(body.c[0]).toBe(bin.close);
    const empty = (await get('/api/udf/history?symbol=XBTUSD&resolution=D&from=1262304000&to=1262390400')).json();
    expect(empty).toEqual(fixture('bitmex', 'udf-history-no-data.json'));
    const gap = (await get('/api/udf/history?symbol=XBTUSD&resolution=D&from=1803000000&to=1803100000')).json<{ s: string; nextTime: number }>();
    expect(gap.s).toBe('no_data');
    expect(gap.nextTime).toBe(Date.parse('2026-03-01T00:00:00Z') / 1000);
    expect((await get('/api/udf/history?symbol=XBTUSD&resolution=7&from=1&to=2')).json()).toMatchObject({ s: 'error' });
  });

  it('instrument/active: the real record key set; XBTUSD tick 0.5, lot 100, inverse; ticker fields present', async () => {
    const rows = (await get('/api/v1/instrument/active')).json<Array<Record<string, unknown>>>();
    const fx = fixture<Array<Record<string, unknown>>>('bitmex', 'instrument-active.json');
    const xbt = rows.find((r) => r.symbol === 'XBTUSD')!;
    expect(Object.keys(xbt)).toEqual(Object.keys(fx[0]));
    expect(xbt).toMatchObject({ tickSize: 0.5, lotSize: 100, isInverse: true, multiplier: -100000000, settlCurrency: 'XBt', underlying: 'XBT' });
    expect(typeof xbt.lastPrice).toBe('number');
    expect(typeof xbt.lastChangePcnt).toBe('number');
    expect(rows.length).toBeGreaterThanOrEqual(19);
    const one = (await get('/api/v1/instrument?symbol=xbtusd')).json<unknown[]>();
    expect(one).toHaveLength(1);
  });

  it('instrument/active lists the quanto ETHUSD: USD-priced at ETH\'s price, XBt-settled, 100 satoshi per contract per USD', async () => {
    const rows = (await get('/api/v1/instrument/active')).json<Array<Record<string, unknown>>>();
    const eth = rows.find((r) => r.symbol === 'ETHUSD')!;
    expect(Object.keys(eth)).toEqual(Object.keys(rows.find((r) => r.symbol === 'XBTUSD')!));
    expect(eth).toMatchObject({
      isQuanto: true,
      isInverse: false,
      multiplier: 100,
      settlCurrency: 'XBt',
      underlying: 'ETH',
      quoteCurrency: 'USD',
      tickSize: 0.05,
      lotSize: 1,
      maxOrderQty: 10000000,
      initMargin: 0.02,
      underlyingToPositionMultiplier: null,
      underlyingToSettleMultiplier: null,
      quoteToSettleMultiplier: null,
      typ: 'FFWCSX',
      state: 'Open',
    });
    // Priced like ETHUSDT (the same ETH path), not like a fraction of XBT.
    const usdt = rows.find((r) => r.symbol === 'ETHUSDT')!;
    expect(Math.abs((eth.lastPrice as number) / (usdt.lastPrice as number) - 1)).toBeLessThan(0.05);
    // Turnover in satoshi = contracts × 100 × price: the 24 h VWAP in USD is turnover ÷ (volume × 100).
    expect(eth.volume24h as number).toBeGreaterThan(0);
    const vwap = (eth.turnover24h as number) / ((eth.volume24h as number) * 100);
    expect(Math.abs(vwap / (eth.lastPrice as number) - 1)).toBeLessThan(0.1);
    // Trades: grossValue = size × 100 × price satoshi.
    const ws = await connectWs(`${sim.ws}/sim/bitmex/realtime?subscribe=trade:ETHUSD`);
    const partial = await ws.next<{ data: Array<{ size: number; price: number; grossValue: number }> }>((f) => has(f, 'table', 'trade') && has(f, 'action', 'partial'));
    ws.close();
    expect(partial.data.length).toBeGreaterThan(0);
    for (const t of partial.data) expect(t.grossValue).toBe(Math.round(t.size * 100 * t.price));
  });
});

describe('bitmex sim WebSocket', () => {
  it('welcome, per-topic acks, partial then inserts; text ping → pong', async () => {
    clock.set(Date.parse('2026-03-01T12:37:58.000Z'));
    const ws = await connectWs(`${sim.ws}/sim/bitmex/realtime`);
    const welcome = await ws.next((f) => has(f, 'info'));
    expect(shapeOf(welcome)).toEqual(shapeOf(fixture('bitmex', 'ws-welcome.json')));
    ws.send(fixture('bitmex', 'ws-subscribe.request.json'));
    const ack = await ws.next((f) => has(f, 'subscribe', 'trade:XBTUSD'));
    expect(Object.keys(ack as object)).toEqual(Object.keys(fixture('bitmex', 'ws-subscribe.response.json') as object));
    const partial = await ws.next((f) => has(f, 'table', 'trade') && has(f, 'action', 'partial'));
    expect(shapeOf(partial)).toEqual(shapeOf(fixture('bitmex', 'ws-trade-partial.json')));
    await ws.next((f) => has(f, 'table', 'instrument') && has(f, 'action', 'partial'));
    clock.advance(1000);
    const insert = await ws.next((f) => has(f, 'table', 'trade') && has(f, 'action', 'insert'));
    expect(shapeOf(insert)).toEqual(shapeOf(fixture('bitmex', 'ws-trade-insert.json')));
    const update = await ws.next<{ data: Array<Record<string, unknown>> }>((f) => has(f, 'table', 'instrument') && has(f, 'action', 'update'));
    expect(update.data[0].symbol).toBe('XBTUSD');
    ws.send('ping');
    expect(await ws.next((f) => f === 'pong')).toBe('pong');
    ws.close();
  });

  it('tradeBin1m inserts only the CLOSED bin, stamped with its end', async () => {
    clock.set(Date.parse('2026-03-01T12:38:58.000Z'));
    const ws = await connectWs(`${sim.ws}/sim/bitmex/realtime?subscribe=tradeBin1m:XBTUSD`);
    const partial = await ws.next<{ data: Bin[] }>((f) => has(f, 'table', 'tradeBin1m') && has(f, 'action', 'partial'));
    expect(partial.data[0].timestamp).toBe('2026-03-01T12:38:00.000Z');
    clock.advance(3000);
    const insert = await ws.next<{ data: Bin[] }>((f) => has(f, 'table', 'tradeBin1m') && has(f, 'action', 'insert'));
    expect(shapeOf(insert)).toEqual(shapeOf(fixture('bitmex', 'ws-tradebin1m-insert.json')));
    expect(insert.data[0].timestamp).toBe('2026-03-01T12:39:00.000Z');
    const [rest] = (await get('/api/v1/trade/bucketed?binSize=1m&symbol=XBTUSD&count=1&reverse=true')).json<Bin[]>();
    expect(insert.data[0]).toEqual(rest);
    ws.close();
  });
});
