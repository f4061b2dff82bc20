import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWs, fixture, has, manualClock, shapeOf, startSim, type SimServer } from '../testing';

const T0 = Date.parse('2026-03-01T12:34:50.000Z');
const clock = manualClock(T0);
let sim: SimServer;
const get = (url: string) => sim.app.inject({ url: `/sim/binance${url}` });

beforeAll(async () => {
  sim = await startSim({ now: clock.now });
});
afterAll(() => sim.close());

describe('binance sim REST', () => {
  it('klines: same row layout and JSON types as the fixture, oldest first, close time = next open − 1', async () => {
    const res = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=5');
    expect(res.statusCode).toBe(200);
    const rows = res.json<unknown[][]>();
    expect(shapeOf(rows)).toEqual(shapeOf(fixture('binance', 'klines.json')));
    expect(rows).toHaveLength(5);
    const times = rows.map((r) => r[0] as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(rows[0][6]).toBe(times[1] - 1);
    expect(rows[4][0]).toBe(Math.floor(T0 / 60_000) * 60_000);
    // decimal strings with the tick's decimals, never float noise
    expect(rows[0][1]).toMatch(/^\d+\.\d{2}$/);
  });

  it('klines: startTime fills forward, endTime backward, default limit 500, max 1500', async () => {
    const start = Date.parse('2026-02-01T00:00:00Z');
    const fwd = (await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1h&startTime=${start}&limit=3`)).json<number[][]>();
    expect(fwd.map((r) => r[0])).toEqual([start, start + 3_600_000, start + 7_200_000]);
    const back = (await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1h&endTime=${start}&limit=2`)).json<number[][]>();
    expect(back.map((r) => r[0])).toEqual([start - 3_600_000, start]);
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m')).json<unknown[]>()).toHaveLength(500);
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1500')).json<unknown[]>()).toHaveLength(1500);
    const tooMany = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1501');
    expect(tooMany.statusCode).toBe(400);
    expect(shapeOf(tooMany.json())).toEqual(shapeOf(fixture('binance', 'error-invalid-symbol.json')));
  });

  it('klines: the 1h bar equals the sum of its 1m bars (every interval from the same minutes)', async () => {
    const start = Date.parse('2026-02-20T10:00:00Z');
    const [hour] = (await get(`/fapi/v1/klines?symbol=ETHUSDT&interval=1h&startTime=${start}&limit=1`)).json<string[][]>();
    const mins = (await get(`/fapi/v1/klines?symbol=ETHUSDT&interval=1m&startTime=${start}&limit=60`)).json<string[][]>();
    expect(hour[1]).toBe(mins[0][1]);
    expect(hour[4]).toBe(mins[59][4]);
    expect(Number(hour[2])).toBe(Math.max(...mins.map((m) => Number(m[2]))));
    expect(Number(hour[5])).toBeCloseTo(mins.reduce((s, m) => s + Number(m[5]), 0), 2);
    expect(hour[8]).toBe(mins.reduce((s, m) => s + Number(m[8]), 0));
  });

  it('errors: the documented bodies with HTTP 400', async () => {
    const bad = await get('/fapi/v1/klines?symbol=NOPE&interval=1m');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(fixture('binance', 'error-invalid-symbol.json'));
    const badInterval = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=2d');
    expect(badInterval.statusCode).toBe(400);
    expect(badInterval.json()).toEqual(fixture('binance', 'error-invalid-interval.json'));
    expect((await get('/fapi/v1/klines?interval=1m')).json()).toMatchObject({ code: -1102 });
    expect((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=abc')).json()).toMatchObject({ code: -1100 });
  });

  it('exchangeInfo: the fixture key set, with real filters and the universe', async () => {
    const body = (await get('/fapi/v1/exchangeInfo')).json<{ symbols: Array<{ symbol: string; filters: Array<Record<string, string>> }> }>();
    const fx = fixture<{ symbols: unknown[] }>('binance', 'exchange-info.json');
    expect(Object.keys(body)).toEqual(expect.arrayContaining(Object.keys(fx)));
    const btc = body.symbols.find((s) => s.symbol === 'BTCUSDT')!;
    expect(shapeOf(btc)).toEqual(shapeOf(fx.symbols[0]));
    expect(btc.filters.find((f) => f.filterType === 'PRICE_FILTER')?.tickSize).toBe('0.10');
    expect(btc.filters.find((f) => f.filterType === 'LOT_SIZE')?.stepSize).toBe('0.001');
    expect(body.symbols.map((s) => s.symbol)).toEqual(expect.arrayContaining(['ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT', '1000PEPEUSDT']));
  });

  it('ticker/24hr: object with symbol, array without, fixture shape; percent is a percent', async () => {
    const one = (await get('/fapi/v1/ticker/24hr?symbol=BTCUSDT')).json<Record<string, string>>();
    const fx = fixture<unknown[]>('binance', 'ticker-24hr-all.json');
    expect(shapeOf(one)).toEqual(shapeOf(fx[0]));
    const change = Number(one.lastPrice) - Number(one.openPrice);
    expect(Number(one.priceChangePercent)).toBeCloseTo((change / Number(one.openPrice)) * 100, 2);
    const all = (await get('/fapi/v1/ticker/24hr')).json<unknown[]>();
    expect(all.length).toBeGreaterThanOrEqual(19);
    expect(shapeOf(all)).toEqual(shapeOf(fx));
  });

  it('time', async () => {
    expect((await get('/fapi/v1/time')).json()).toEqual({ serverTime: T0 });
  });
});

describe('binance sim WebSocket', () => {
  it('raw kline stream: fixture shape, live updates, then the closing message k.x:true', async () => {
    clock.set(Date.parse('2026-03-01T12:35:58.000Z'));
    const ws = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@kline_1m`);
    const first = await ws.next<{ k: { x: boolean; t: number } }>((f) => has(f, 'e', 'kline'));
    expect(shapeOf(first)).toEqual(shapeOf(fixture('binance', 'ws-kline.json')));
    expect(first.k.x).toBe(false);
    clock.advance(1500);
    const moved = await ws.next<{ k: { v: string } }>((f) => has(f, 'e', 'kline') && f !== first);
    expect(Number(moved.k.v)).toBeGreaterThan(0);
    clock.advance(2000); // past 12:36:00
    const closing = await ws.next<{ k: { x: boolean; t: number } }>((f) => has(f, 'e', 'kline') && (f as { k: { x: boolean } }).k.x);
    expect(closing.k.t).toBe(first.k.t);
    const next = await ws.next<{ k: { t: number; x: boolean } }>((f) => has(f, 'e', 'kline') && (f as { k: { t: number } }).k.t === first.k.t + 60_000);
    expect(next.k.x).toBe(false);
    ws.close();
  });

  it('SUBSCRIBE / LIST_SUBSCRIPTIONS / UNSUBSCRIBE with the documented replies; aggTrade frames', async () => {
    const ws = await connectWs(`${sim.ws}/sim/binance/market/ws`);
    ws.send(fixture('binance', 'ws-subscribe.request.json'));
    expect(await ws.next((f) => has(f, 'id', 1))).toEqual(fixture('binance', 'ws-subscribe.response.json'));
    clock.advance(3000);
    const trade = await ws.next((f) => has(f, 'e', 'aggTrade'));
    expect(shapeOf(trade)).toEqual(shapeOf(fixture('binance', 'ws-aggtrade.json')));
    ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    expect(await ws.next((f) => has(f, 'id', 2))).toEqual({ result: ['btcusdt@kline_1m', 'btcusdt@aggTrade'], id: 2 });
    ws.send({ method: 'UNSUBSCRIBE', params: ['btcusdt@aggTrade'], id: 3 });
    expect(await ws.next((f) => has(f, 'id', 3))).toEqual({ result: null, id: 3 });
    ws.close();
  });

  it('combined stream wraps frames as {stream, data}; ticker frames have the documented fields', async () => {
    const ws = await connectWs(`${sim.ws}/sim/binance/market/stream?streams=btcusdt@kline_1m/ethusdt@ticker`);
    const kline = await ws.next<{ stream: string }>((f) => has(f, 'stream', 'btcusdt@kline_1m'));
    expect(shapeOf(kline)).toEqual(shapeOf(fixture('binance', 'ws-kline.combined.json')));
    const ticker = await ws.next<{ data: unknown }>((f) => has(f, 'stream', 'ethusdt@ticker'));
    expect(shapeOf(ticker.data)).toEqual(shapeOf(fixture('binance', 'ws-ticker.doc.json')));
    ws.close();
  });

  it('sends WebSocket ping frames (the heartbeat is control frames, not JSON)', async () => {
    const quick = await startSim({ now: clock.now, binancePingIntervalMs: 50 });
    const ws = await connectWs(`${quick.ws}/sim/binance/market/ws/btcusdt@aggTrade`);
    await new Promise<void>((resolve) => ws.socket.once('ping', () => resolve()));
    ws.close();
    await quick.close();
  });
});
