import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWs, fixture, has, manualClock, shapeOf, startSim, type SimServer } from '../testing';

const T0 = Date.parse('2026-03-01T12:34:50.000Z');
const clock = manualClock(T0);
let sim: SimServer;
const get = (url: string) => sim.app.inject({ url: `/sim/bybit${url}` });
type Envelope<T> = { retCode: number; retMsg: string; result: T; time: number };

beforeAll(async () => {
  sim = await startSim({ now: clock.now });
});
afterAll(() => sim.close());

describe('bybit sim REST', () => {
  it('kline linear: the fixture envelope and string rows, newest first, list[0] the forming bar', async () => {
    const res = await get('/v5/market/kline?category=linear&symbol=BTCUSDT&interval=60&limit=5');
    expect(res.statusCode).toBe(200);
    const body = res.json<Envelope<{ list: string[][] }>>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('bybit', 'kline-linear.json')));
    const starts = body.result.list.map((r) => Number(r[0]));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(starts[0]).toBe(Date.parse('2026-03-01T12:00:00Z'));
  });

  it('kline inverse: volume is USD contracts (integers), turnover is BTC', async () => {
    const body = (await get('/v5/market/kline?category=inverse&symbol=BTCUSD&interval=60&limit=3')).json<Envelope<{ list: string[][] }>>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('bybit', 'kline-inverse.doc.json')));
    const [, , , , close, volume, turnover] = body.result.list[1];
    expect(volume).toMatch(/^\d+$/);
    // turnover (BTC) ≈ volume (USD) / price
    expect(Number(turnover)).toBeGreaterThan((Number(volume) / Number(close)) * 0.97);
    expect(Number(turnover)).toBeLessThan((Number(volume) / Number(close)) * 1.03);
  });

  it('kline: category defaults to linear, start pages forward, end backward, limit ≤ 1000', async () => {
    const start = Date.parse('2026-02-01T00:00:00Z');
    const fwd = (await get(`/v5/market/kline?symbol=BTCUSDT&interval=D&start=${start}&limit=2`)).json<Envelope<{ list: string[][]; category: string }>>();
    expect(fwd.result.category).toBe('linear');
    expect(fwd.result.list.map((r) => Number(r[0]))).toEqual([start + 86_400_000, start]);
    const back = (await get(`/v5/market/kline?symbol=BTCUSDT&interval=D&end=${start}&limit=2`)).json<Envelope<{ list: string[][] }>>();
    expect(back.result.list.map((r) => Number(r[0]))).toEqual([start, start - 86_400_000]);
    expect((await get('/v5/market/kline?symbol=BTCUSDT&interval=1')).json<Envelope<{ list: unknown[] }>>().result.list).toHaveLength(200);
    expect((await get('/v5/market/kline?symbol=BTCUSDT&interval=1&limit=1001')).json<Envelope<unknown>>().retCode).toBe(10001);
  });

  it('errors come with HTTP 200 and retCode ≠ 0 (unknown symbol = the documented body)', async () => {
    const res = await get('/v5/market/kline?category=linear&symbol=NOPE&interval=1');
    expect(res.statusCode).toBe(200);
    const { time: _t, ...rest } = res.json<Envelope<unknown>>();
    const { time: _f, ...expected } = fixture<Envelope<unknown>>('bybit', 'error-not-supported-symbol.json');
    expect(rest).toEqual(expected);
    expect((await get('/v5/market/kline?category=linear&symbol=BTCUSDT&interval=480')).json<Envelope<unknown>>().retCode).toBe(10001);
    // an inverse symbol is not a linear one
    expect((await get('/v5/market/kline?category=linear&symbol=BTCUSD&interval=1')).json<Envelope<unknown>>().retCode).toBe(10001);
  });

  it('instruments-info: the fixture item shape and cursor paging (trap 19)', async () => {
    const first = (await get('/v5/market/instruments-info?category=linear&limit=7')).json<Envelope<{ list: Array<{ symbol: string }>; nextPageCursor: string }>>();
    const fx = fixture<Envelope<{ list: unknown[] }>>('bybit', 'instruments-linear.doc.json');
    expect(shapeOf(first.result.list[0])).toEqual(shapeOf(fx.result.list[0]));
    const fxBtc = fx.result.list[0] as { priceFilter: unknown; lotSizeFilter: unknown };
    expect(first.result.list[0]).toMatchObject({ symbol: 'BTCUSDT', priceFilter: fxBtc.priceFilter, lotSizeFilter: fxBtc.lotSizeFilter });
    const symbols = first.result.list.map((i) => i.symbol);
    let cursor = first.result.nextPageCursor;
    expect(cursor).not.toBe('');
    while (cursor) {
      const page = (await get(`/v5/market/instruments-info?category=linear&limit=7&cursor=${encodeURIComponent(cursor)}`)).json<Envelope<{ list: Array<{ symbol: string }>; nextPageCursor: string }>>();
      symbols.push(...page.result.list.map((i) => i.symbol));
      cursor = page.result.nextPageCursor;
    }
    expect(new Set(symbols).size).toBe(symbols.length);
    expect(symbols.length).toBeGreaterThanOrEqual(19);
    const all = (await get('/v5/market/instruments-info?category=linear')).json<Envelope<{ list: unknown[]; nextPageCursor: string }>>();
    expect(all.result.list).toHaveLength(symbols.length);
    expect(all.result.nextPageCursor).toBe('');
    expect((await get('/v5/market/instruments-info')).json<Envelope<unknown>>().retCode).toBe(10001);
  });

  it('tickers: the fixture item shape; price24hPcnt is a fraction', async () => {
    const body = (await get('/v5/market/tickers?category=linear')).json<Envelope<{ list: Array<Record<string, string>> }>>();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('bybit', 'tickers-linear.json')));
    const btc = body.result.list.find((t) => t.symbol === 'BTCUSDT')!;
    const frac = (Number(btc.lastPrice) - Number(btc.prevPrice24h)) / Number(btc.prevPrice24h);
    expect(Number(btc.price24hPcnt)).toBeCloseTo(frac, 4);
    const inv = (await get('/v5/market/tickers?category=inverse&symbol=BTCUSD')).json<Envelope<{ list: unknown[] }>>();
    expect(shapeOf(inv)).toEqual(shapeOf(fixture('bybit', 'tickers-inverse.doc.json')));
  });

  it('time', async () => {
    const body = (await get('/v5/market/time')).json<Envelope<{ timeSecond: string; timeNano: string }>>();
    expect(body.result.timeSecond).toBe(String(T0 / 1000));
    expect(body.retCode).toBe(0);
  });
});

describe('bybit sim WebSocket', () => {
  it('subscribe ack and ping/pong as the fixtures (pong keeps op "ping")', async () => {
    const ws = await connectWs(`${sim.ws}/sim/bybit/v5/public/linear`);
    ws.send({ op: 'subscribe', args: ['kline.1.BTCUSDT'] });
    const ack = await ws.next((f) => has(f, 'op', 'subscribe'));
    expect(shapeOf(ack)).toEqual(shapeOf(fixture('bybit', 'ws-subscribe.response.json')));
    expect(ack).toMatchObject({ success: true, ret_msg: '' });
    ws.send(fixture('bybit', 'ws-ping.request.json'));
    const pong = await ws.next((f) => has(f, 'ret_msg', 'pong'));
    expect(shapeOf(pong)).toEqual(shapeOf(fixture('bybit', 'ws-pong.linear.json')));
    expect(pong).toMatchObject({ op: 'ping', req_id: '100001' });
    ws.close();
  });

  it('kline, publicTrade and tickers (snapshot then deltas) in the documented shapes; confirm on close', async () => {
    clock.set(Date.parse('2026-03-01T12:36:58.000Z'));
    const ws = await connectWs(`${sim.ws}/sim/bybit/v5/public/linear`);
    ws.send(fixture('bybit', 'ws-subscribe.request.json'));
    const kline = await ws.next<{ data: Array<{ confirm: boolean; start: number }> }>((f) => has(f, 'topic', 'kline.1.BTCUSDT'));
    expect(shapeOf(kline)).toEqual(shapeOf(fixture('bybit', 'ws-kline.doc.json')));
    const snapshot = await ws.next((f) => has(f, 'topic', 'tickers.BTCUSDT') && has(f, 'type', 'snapshot'));
    expect(shapeOf(snapshot)).toEqual(shapeOf(fixture('bybit', 'ws-ticker-linear.snapshot.doc.json')));
    clock.advance(1000);
    const trade = await ws.next((f) => has(f, 'topic', 'publicTrade.BTCUSDT'));
    expect(shapeOf(trade)).toEqual(shapeOf(fixture('bybit', 'ws-public-trade.doc.json')));
    const delta = await ws.next<{ data: Record<string, string> }>((f) => has(f, 'topic', 'tickers.BTCUSDT') && has(f, 'type', 'delta'));
    expect(delta.data.symbol).toBe('BTCUSDT');
    expect(Object.keys(delta.data).length).toBeLessThan(Object.keys((snapshot as { data: object }).data).length);
    clock.advance(2000);
    const closed = await ws.next<{ data: Array<{ confirm: boolean; start: number }> }>(
      (f) => has(f, 'topic', 'kline.1.BTCUSDT') && (f as { data: Array<{ confirm: boolean }> }).data.some((d) => d.confirm),
    );
    expect(closed.data.find((d) => d.confirm)?.start).toBe(kline.data[0].start);
    ws.close();
  });

  it('rejects topics of the other category', async () => {
    const ws = await connectWs(`${sim.ws}/sim/bybit/v5/public/inverse`);
    ws.send({ op: 'subscribe', args: ['kline.1.BTCUSDT'], req_id: 'x' });
    expect(await ws.next((f) => has(f, 'op', 'subscribe'))).toMatchObject({ success: false, req_id: 'x' });
    ws.send({ op: 'subscribe', args: ['kline.1.BTCUSD'] });
    expect(await ws.next((f) => has(f, 'op', 'subscribe') && has(f, 'success', true))).toBeTruthy();
    ws.close();
  });
});
