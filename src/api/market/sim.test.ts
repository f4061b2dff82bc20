/**
 * The four adapters against the real market simulator (server/sim) on a real Fastify, over HTTP and
 * WebSocket (the `ws` package stands in for the browser's WebSocket). The sim's clock is ours: tests
 * move it forward while the sockets are down to create a gap the back-fill must close.
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import simPlugin from '../../../server/sim/index';
import type { ExchangeId } from '../contracts/common';
import { aggregateCandles } from './aggregate';
import { INTERVAL_SECONDS } from './intervals';
import { createMarketAdapter, pageEndBefore, type Candle, type ConnectionStatus, type Interval, type MarketAdapter } from './index';

/** Set once the simulator listens on a free port (a fixed one collides with other runs on the machine). */
let BASE = '';
const SYMBOL: Record<ExchangeId, string> = { binance: 'BTCUSDT', bybit: 'BTCUSDT', okx: 'BTCUSDT', bitmex: 'XBTUSD' };
const EXCHANGES = ['binance', 'bybit', 'okx', 'bitmex'] as const;

let app: FastifyInstance;
let offset = 0;
let frozenAt: number | undefined;
/** The sim's and the adapters' clock: real time plus `offset`, or frozen so two fetches see one market. */
const clock = () => frozenAt ?? Date.now() + offset;

function adapterFor(exchange: ExchangeId): MarketAdapter {
  const base = `${BASE}/${exchange}`;
  const ws = base.replace(/^http/, 'ws');
  return createMarketAdapter(exchange, { rest: base, restTestnet: base, ws, wsTestnet: ws }, {
    WebSocket,
    now: clock,
    backoff: { baseMs: 50, maxMs: 200 },
  });
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function simState(): Promise<{ sockets: number }> {
  return (await (await fetch(`${BASE}/_control/state`)).json()) as { sockets: number };
}

async function waitForSockets(n: number): Promise<void> {
  const until = Date.now() + 5_000;
  while ((await simState()).sockets !== n) {
    if (Date.now() > until) throw new Error(`the simulator still holds ${(await simState()).sockets} sockets, expected ${n}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function pages(market: MarketAdapter, symbol: string, interval: Interval, count: number): Promise<Candle[][]> {
  const out: Candle[][] = [];
  let endTime: number | undefined;
  for (let i = 0; i < count; i += 1) {
    const page = await market.fetchCandles({ symbol, interval, endTime, testnet: false });
    out.push(page);
    endTime = pageEndBefore(page[0]!);
  }
  return out;
}

/** Joined oldest first; asserts unique, ascending, and spaced exactly one bar apart (the sim trades every minute). */
function expectGapless(ps: Candle[][], interval: Interval): Candle[] {
  const joined = [...ps].reverse().flat();
  for (let i = 1; i < joined.length; i += 1) {
    const step = joined[i]!.time - joined[i - 1]!.time;
    if (interval === '1M') expect(step).toBeGreaterThanOrEqual(28 * 86400);
    else expect(step, `bar ${i} of ${joined.length}`).toBe(INTERVAL_SECONDS[interval]);
  }
  return joined;
}

function expectSameBars(actual: Candle[], expected: Candle[]) {
  expect(actual.map((c) => c.time)).toEqual(expected.map((c) => c.time));
  for (const [i, c] of actual.entries()) {
    const e = expected[i]!;
    expect([c.open, c.high, c.low, c.close]).toEqual([e.open, e.high, e.low, e.close]);
    expect(c.volume).toBeCloseTo(e.volume, 3);
  }
}

beforeAll(async () => {
  app = Fastify();
  await app.register(websocket);
  await app.register(simPlugin, { prefix: '/sim', now: clock, pushIntervalMs: 100 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  BASE = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/sim`;
});

afterAll(async () => {
  await app.close();
});

describe.each(EXCHANGES)('%s adapter against the simulator', (exchange) => {
  const symbol = SYMBOL[exchange];

  it('pages 1-minute history backwards over 3+ pages without gaps or duplicates', async () => {
    const market = adapterFor(exchange);
    const ps = await pages(market, symbol, '1m', 4);
    expect(ps.map((p) => p.length)).toEqual([300, 300, 300, 300]);
    const joined = expectGapless(ps, '1m');
    // The forming minute ends the latest page (the clock may have ticked into the next minute since).
    expect(Math.floor(clock() / 60_000) * 60 - joined.at(-1)!.time).toBeLessThanOrEqual(60);
    for (const c of joined) {
      expect(c.symbol).toBe(symbol);
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
    }
  });

  it('24 h tickers list the symbol with a last price near the latest bar', async () => {
    const market = adapterFor(exchange);
    const tickers = await market.fetchTickers({ testnet: false });
    const mine = tickers.find((t) => t.symbol === symbol);
    expect(mine).toBeDefined();
    const [bar] = (await market.fetchCandles({ symbol, interval: '1m', testnet: false })).slice(-1);
    expect(Math.abs(mine!.lastPrice - bar!.close) / bar!.close).toBeLessThan(0.01);
    expect(Math.abs(mine!.changePercent)).toBeLessThan(50); // percent, not a fraction ×100 twice
    for (const t of tickers) expect(Number.isFinite(t.changePercent) && Number.isFinite(t.volume24h)).toBe(true);
    if (exchange === 'bybit') expect(tickers.some((t) => t.symbol === 'BTCUSD')).toBe(true); // inverse listed too
  });

  it('a REST error carries the exchange message', async () => {
    const market = adapterFor(exchange);
    const err = await market.fetchCandles({ symbol: 'NOPEUSDT', interval: '1m', testnet: false }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'MarketDataError', exchange });
    expect((err as Error).message.length).toBeGreaterThan(0);
    expect((err as Error).message).not.toMatch(/^Malformed/);
  });

  it('streams live bars, reconnects after the server drops the socket, and back-fills the gap', async () => {
    const market = adapterFor(exchange);
    const updates: Candle[] = [];
    const statuses: ConnectionStatus[] = [];
    const errors: string[] = [];
    const stop = market.subscribe({ symbol, interval: '1m' }, (c) => updates.push(c), { onStatus: (s) => statuses.push(s), onError: (e) => errors.push(e.message) });
    try {
      await waitFor('live updates', () => updates.length >= 3);
      const before = updates.at(-1)!.time;
      expect(Math.floor(clock() / 60_000) * 60 - before).toBeLessThanOrEqual(60);

      const dropped = (await (await fetch(`${BASE}/_control/drop-sockets?exchange=${exchange}`, { method: 'POST' })).json()) as { dropped: number };
      expect(dropped.dropped).toBe(1);
      offset += 5 * 60_000; // five minutes pass while the connection is down
      await waitFor('the bars after the gap', () => updates.at(-1)!.time >= before + 5 * 60);
      expect(statuses).toContain('reconnecting');
      expect(statuses.at(-1)).toBe('open');

      // Never backwards, and every minute of the gap arrived.
      const times = updates.map((u) => u.time);
      for (let i = 1; i < times.length; i += 1) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
      const distinct = [...new Set(times.filter((t) => t >= before))];
      expect(distinct).toEqual(Array.from({ length: distinct.length }, (_, i) => before + i * 60));

      // The back-filled minutes are exactly the exchange's closed bars.
      const last = updates.at(-1)!.time;
      const rest = await market.fetchCandles({ symbol, interval: '1m', endTime: last * 1000 - 1, testnet: false });
      const finalOf = (t: number) => updates.filter((u) => u.time === t).at(-1)!;
      const gap = rest.filter((c) => c.time > before && c.time < last);
      expect(gap.length).toBeGreaterThanOrEqual(4);
      expectSameBars(gap.map((c) => finalOf(c.time)), gap);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  it('unsubscribe closes the socket on the server side too', async () => {
    const market = adapterFor(exchange);
    const updates: Candle[] = [];
    await waitForSockets(0); // earlier tests' sockets are closing asynchronously
    const stop = market.subscribe({ symbol, interval: '5m' }, (c) => updates.push(c));
    await waitFor('live updates', () => updates.length >= 2);
    expect((await simState()).sockets).toBe(1);
    stop();
    const count = updates.length;
    await waitForSockets(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(updates.length).toBe(count);
  });
});

describe('aggregated intervals against the simulator', () => {
  beforeAll(() => {
    frozenAt = Date.now() + offset;
  });
  afterAll(() => {
    frozenAt = undefined;
  });

  it('bybit 8h (from 60) equals pairs of its native 4h bars, across 3 pages', async () => {
    const market = adapterFor('bybit');
    const eight = expectGapless(await pages(market, 'BTCUSDT', '8h', 3), '8h');
    const four = expectGapless(await pages(market, 'BTCUSDT', '4h', 6), '4h');
    const fromFour = aggregateCandles(four, '8h').filter((c) => c.time >= eight[0]!.time);
    expectSameBars(eight, fromFour);
  });

  it('okx 8h (from 1H) equals pairs of its native 4H bars', async () => {
    const market = adapterFor('okx');
    const eight = expectGapless(await pages(market, 'BTCUSDT', '8h', 2), '8h');
    const four = expectGapless(await pages(market, 'BTCUSDT', '4h', 4), '4h');
    expectSameBars(eight, aggregateCandles(four, '8h').filter((c) => c.time >= eight[0]!.time));
  });

  it('bitmex 15m (from 1m) equals triples of its native 5m bars, across 3 pages', async () => {
    const market = adapterFor('bitmex');
    const fifteen = expectGapless(await pages(market, 'XBTUSD', '15m', 3), '15m');
    const five = expectGapless(await pages(market, 'XBTUSD', '5m', 9), '5m');
    expectSameBars(fifteen, aggregateCandles(five, '15m').filter((c) => c.time >= fifteen[0]!.time));
  });

  it('bitmex 1w and 1M (from D) open on Mondays and on the 1st, down to the listing', async () => {
    const market = adapterFor('bitmex');
    // XBTUSD is listed 2016-05-04 in the sim: pages ending in 2017 reach the start of history.
    const months = await market.fetchCandles({ symbol: 'XBTUSD', interval: '1M', endTime: Date.parse('2017-12-31T00:00:00Z'), testnet: false });
    expect(months.map((m) => new Date(m.time * 1000).toISOString().slice(0, 7))).toEqual(
      Array.from({ length: 20 }, (_, i) => new Date(Date.UTC(2016, 4 + i, 1)).toISOString().slice(0, 7)),
    );
    expect(await market.fetchCandles({ symbol: 'XBTUSD', interval: '1M', endTime: pageEndBefore(months[0]!), testnet: false })).toEqual([]);
    const weeks = await market.fetchCandles({ symbol: 'XBTUSD', interval: '1w', endTime: Date.parse('2017-06-01T00:00:00Z'), testnet: false });
    expect(new Date(weeks[0]!.time * 1000).toISOString().slice(0, 10)).toBe('2016-05-02'); // the Monday of the listing week
    for (const w of weeks) expect(new Date(w.time * 1000).getUTCDay()).toBe(1);
    expectGapless([weeks], '1w');
    // The listing month's bar holds the daily bars from the listing day on.
    const days = await market.fetchCandles({ symbol: 'XBTUSD', interval: '1d', endTime: Date.parse('2016-05-31T00:00:00Z'), testnet: false });
    expect(days[0]!.time).toBe(Date.parse('2016-05-04T00:00:00Z') / 1000);
    expectSameBars([months[0]!], aggregateCandles(days, '1M'));
  });

});

describe('aggregated live bars against the simulator', () => {
  it.each([
    ['bybit', '8h'],
    ['okx', '8h'],
    ['bitmex', '15m'],
  ] as const)('a live %s %s bar folds the stream into the REST-seeded bucket', async (exchange, interval) => {
    const market = adapterFor(exchange);
    const symbol = SYMBOL[exchange];
    const [latest] = await pages(market, symbol, interval, 1);
    const updates: Candle[] = [];
    const errors: string[] = [];
    const stop = market.subscribe({ symbol, interval }, (c) => updates.push(c), { onError: (e) => errors.push(e.message) });
    try {
      await waitFor(`live ${interval} updates`, () => updates.length >= 3);
      const live = updates.at(-1)!;
      const rest = latest!.at(-1)!;
      expect(live.time).toBe(rest.time);
      expect(live.open).toBe(rest.open); // the bucket's first base bars came from REST, not the stream
      expect(live.high).toBeGreaterThanOrEqual(rest.high);
      expect(live.low).toBeLessThanOrEqual(rest.low);
      expect(live.volume).toBeGreaterThanOrEqual(rest.volume * 0.999);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });
});
