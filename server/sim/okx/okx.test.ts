import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWs, fixture, has, manualClock, shapeOf, startSim, type SimServer } from '../testing';

const T0 = Date.parse('2026-03-01T12:34:50.000Z');
const clock = manualClock(T0);
let sim: SimServer;
const get = (url: string, headers: Record<string, string> = {}) => sim.app.inject({ url: `/sim/okx${url}`, headers });
type Body<T> = { code: string; msg: string; data: T[] };

beforeAll(async () => {
  sim = await startSim({ now: clock.now });
});
afterAll(() => sim.close());

describe('okx sim REST', () => {
  it('candles: all strings, newest first, confirm "0" only on the forming bar (fixture shape)', async () => {
    const res = await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1H&limit=5', { 'x-simulated-trading': '1' });
    expect(res.statusCode).toBe(200);
    const body = res.json<Body<string[]>>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('okx', 'candles-swap-1H.json')));
    const ts = body.data.map((r) => Number(r[0]));
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
    expect(body.data.map((r) => r[8])).toEqual(['0', '1', '1', '1', '1']);
    // SWAP: vol = contracts, volCcy = vol × ctVal (0.01 BTC)
    const [, , , , , vol, volCcy] = body.data[1];
    expect(Number(volCcy)).toBeCloseTo(Number(vol) * 0.01, 3);
  });

  it('bars: 1D opens at 16:00 UTC (UTC+8), 1Dutc at midnight; no 8H', async () => {
    const d = (await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1D&limit=1')).json<Body<string[]>>();
    expect(new Date(Number(d.data[0][0])).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    const u = (await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1Dutc&limit=1')).json<Body<string[]>>();
    expect(new Date(Number(u.data[0][0])).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect((await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=8H')).json<Body<unknown>>().code).toBe('51000');
    expect((await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1h')).json<Body<unknown>>().code).toBe('51000');
  });

  it('after/before are exclusive cursors; candles reach back 1440 bars, history-candles further; limit ≤ 300', async () => {
    const page = (await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1m&limit=300')).json<Body<string[]>>();
    expect(page.data).toHaveLength(300);
    const oldest = page.data[299][0];
    const older = (await get(`/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1m&after=${oldest}&limit=3`)).json<Body<string[]>>();
    expect(older.data.map((r) => Number(r[0]))).toEqual([Number(oldest) - 60_000, Number(oldest) - 120_000, Number(oldest) - 180_000]);
    const newer = (await get(`/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1m&before=${oldest}&limit=2`)).json<Body<string[]>>();
    expect(Number(newer.data[1][0])).toBeGreaterThan(Number(oldest));
    const farAfter = Date.parse('2026-02-25T00:00:00Z');
    expect((await get(`/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1m&after=${farAfter}`)).json<Body<unknown>>().data).toEqual([]);
    const hist = (await get(`/api/v5/market/history-candles?instId=BTC-USDT-SWAP&bar=1m&after=${farAfter}&limit=2`)).json<Body<string[]>>();
    expect(hist.data.map((r) => Number(r[0]))).toEqual([farAfter - 60_000, farAfter - 120_000]);
    expect((await get('/api/v5/market/candles?instId=BTC-USDT-SWAP&limit=301')).json<Body<unknown>>().code).toBe('51000');
  });

  it('errors: HTTP 200 with a string code (unknown instrument = the documented body)', async () => {
    const res = await get('/api/v5/market/candles?instId=NOPE-USDT-SWAP');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(fixture('okx', 'error-instrument-not-exist.json'));
  });

  it('instruments and tickers: the fixture key sets; inverse ctVal 100 USD', async () => {
    const inst = (await get('/api/v5/public/instruments?instType=SWAP')).json<Body<Record<string, unknown>>>();
    const fx = fixture<Body<Record<string, unknown>>>('okx', 'instruments-swap.json');
    expect(shapeOf(inst.data[0])).toEqual(shapeOf(fx.data[0]));
    const btc = inst.data.find((i) => i.instId === 'BTC-USDT-SWAP')!;
    const { instIdCode: _a, listTime: _b, ...fxBtc } = fx.data[0];
    expect(btc).toMatchObject(fxBtc);
    expect(inst.data.find((i) => i.instId === 'BTC-USD-SWAP')).toMatchObject({ ctVal: '100', ctType: 'inverse', settleCcy: 'BTC' });
    expect((await get('/api/v5/public/instruments')).json<Body<unknown>>().code).toBe('50014');
    const tickers = (await get('/api/v5/market/tickers?instType=SWAP')).json<Body<unknown>>();
    expect(shapeOf(tickers)).toEqual(shapeOf(fixture('okx', 'tickers-swap.json')));
    const one = (await get('/api/v5/market/ticker?instId=ETH-USDT-SWAP')).json<Body<{ instId: string }>>();
    expect(one.data[0].instId).toBe('ETH-USDT-SWAP');
    expect((await get('/api/v5/public/time')).json()).toEqual({ code: '0', msg: '', data: [{ ts: String(T0) }] });
  });
});

describe('okx sim WebSocket', () => {
  it('candles on /business: ack like the fixture, pushes, confirm "1" when the bar closes', async () => {
    clock.set(Date.parse('2026-03-01T12:39:58.000Z'));
    const ws = await connectWs(`${sim.ws}/sim/okx/ws/v5/business`);
    ws.send({ id: '1512', op: 'subscribe', args: [{ channel: 'candle1m', instId: 'BTC-USDT-SWAP' }] });
    const ack = await ws.next((f) => has(f, 'event', 'subscribe'));
    expect(shapeOf(ack)).toEqual(shapeOf(fixture('okx', 'ws-subscribe-candle.response.doc.json')));
    const push = await ws.next<{ data: string[][] }>((f) => has(f, 'arg') && has(f, 'data'));
    expect(shapeOf(push)).toEqual(shapeOf(fixture('okx', 'ws-candle.doc.json')));
    expect(push.data[0][8]).toBe('0');
    clock.advance(3000);
    const closed = await ws.next<{ data: string[][] }>((f) => has(f, 'data') && (f as { data: string[][] }).data[0][8] === '1');
    expect(closed.data[0][0]).toBe(push.data[0][0]);
    ws.send('ping');
    expect(await ws.next((f) => f === 'pong')).toBe('pong');
    ws.close();
  });

  it('candles on /public are refused with 60018; tickers and trades work there', async () => {
    const ws = await connectWs(`${sim.ws}/sim/okx/ws/v5/public`);
    ws.send({ op: 'subscribe', args: [{ channel: 'candle1m', instId: 'BTC-USDT-SWAP' }] });
    expect(await ws.next((f) => has(f, 'event', 'error'))).toMatchObject({ code: '60018' });
    ws.send({ op: 'subscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT-SWAP' }, { channel: 'trades', instId: 'BTC-USDT-SWAP' }] });
    const tick = await ws.next<{ data: unknown[] }>((f) => has(f, 'arg') && (f as { arg: { channel: string } }).arg.channel === 'tickers' && has(f, 'data'));
    expect(shapeOf(tick)).toEqual(shapeOf(fixture('okx', 'ws-tickers.doc.json')));
    clock.advance(1000);
    const trade = await ws.next((f) => has(f, 'arg') && (f as { arg: { channel: string } }).arg.channel === 'trades' && has(f, 'data'));
    expect(shapeOf(trade)).toEqual(shapeOf(fixture('okx', 'ws-trades.doc.json')));
    ws.close();
  });
});
