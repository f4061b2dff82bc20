/**
 * The order-flow feeds against the real simulator (server/sim) over HTTP and WebSocket (the `ws`
 * package stands in for the browser's): for each exchange the local book equals a REST snapshot, and it
 * recovers — from a dropped message (a gap), from a corrupted OKX frame (a checksum failure) and from a
 * dropped socket (a reconnect) — back to a book equal to the exchange's snapshot. The sim's clock is
 * ours: it runs while the book streams and stands still while we compare.
 */
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setRestingOrderSource } from '../../../../server/sim/market/book';
import { SimMarket } from '../../../../server/sim/market/market';
import { manualClock, startSim, type SimServer } from '../../../../server/sim/testing';
import type { ExchangeId } from '../../contracts/common';
import type { WebSocketLike } from '../ws-connection';
import { acquireOrderFlow, openOrderFlowCount, type OrderFlowFeed, type OrderFlowHandle } from './index';

const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);
const SYMBOL: Record<ExchangeId, string> = { binance: 'BTCUSDT', bybit: 'BTCUSDT', okx: 'BTCUSDT', bitmex: 'XBTUSD' };
const EXCHANGES = ['binance', 'bybit', 'okx', 'bitmex'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const clock = manualClock(T0);
const market = new SimMarket({ seed: 'order-flow', now: clock.now });
let sim: SimServer;
let ticker: ReturnType<typeof setInterval> | undefined;

/** Changes frames on their way to the feed: return null to drop one. Reset after each test. */
let tamper: ((text: string) => string | null) | null = null;

/** The `ws` socket with `tamper` between the wire and the feed's `onmessage`. */
class TamperingSocket implements WebSocketLike {
  private readonly ws: WebSocket;
  constructor(url: string) {
    this.ws = new WebSocket(url);
  }
  get readyState() {
    return this.ws.readyState;
  }
  send(data: string) {
    this.ws.send(data);
  }
  close(code?: number, reason?: string) {
    this.ws.close(code, reason);
  }
  set onopen(f: ((ev: never) => void) | null) {
    this.ws.onopen = f as never;
  }
  get onopen() {
    return null;
  }
  set onclose(f: ((ev: never) => void) | null) {
    this.ws.onclose = f as never;
  }
  get onclose() {
    return null;
  }
  set onerror(f: ((ev: never) => void) | null) {
    this.ws.onerror = f as never;
  }
  get onerror() {
    return null;
  }
  set onmessage(f: ((ev: never) => void) | null) {
    const deliver = f as ((ev: { data: string }) => void) | null;
    this.ws.onmessage = deliver
      ? (ev) => {
          const text = String(ev.data as string);
          const out = tamper ? tamper(text) : text;
          if (out !== null) deliver({ data: out });
        }
      : null;
  }
  get onmessage() {
    return null;
  }
}

function runClock(): void {
  ticker ??= setInterval(() => clock.advance(100), 25);
}
function stopClock(): void {
  clearInterval(ticker);
  ticker = undefined;
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function open(exchange: ExchangeId): OrderFlowHandle {
  const rest = `${sim.base}/sim/${exchange}`;
  const ws = `${sim.ws}/sim/${exchange}`;
  return acquireOrderFlow({ exchange, symbol: SYMBOL[exchange], testnet: false }, { rest, restTestnet: rest, ws, wsTestnet: ws }, {
    WebSocket: TamperingSocket,
    backoff: { baseMs: 50, maxMs: 200 },
  });
}

type Rows = Array<[number, number]>;

/** The exchange's REST book, best first per side, as numbers. */
async function restBook(exchange: ExchangeId): Promise<{ bids: Rows; asks: Rows; depth: number }> {
  const get = async (path: string) => (await fetch(`${sim.base}/sim/${exchange}${path}`)).json() as Promise<unknown>;
  const rows = (l: string[][]): Rows => l.map((r) => [Number(r[0]), Number(r[1])]);
  if (exchange === 'binance') {
    const b = (await get('/fapi/v1/depth?symbol=BTCUSDT&limit=1000')) as { bids: string[][]; asks: string[][] };
    return { bids: rows(b.bids), asks: rows(b.asks), depth: 200 };
  }
  if (exchange === 'bybit') {
    const b = (await get('/v5/market/orderbook?category=linear&symbol=BTCUSDT&limit=200')) as { result: { b: string[][]; a: string[][] } };
    return { bids: rows(b.result.b), asks: rows(b.result.a), depth: 200 };
  }
  if (exchange === 'okx') {
    const b = (await get('/api/v5/market/books?instId=BTC-USDT-SWAP&sz=400')) as { data: Array<{ bids: string[][]; asks: string[][] }> };
    return { bids: rows(b.data[0]!.bids), asks: rows(b.data[0]!.asks), depth: 400 };
  }
  const l2 = (await get('/api/v1/orderBook/L2?symbol=XBTUSD&depth=25')) as Array<{ side: string; price: number; size: number }>;
  const side = (s: string): Rows => l2.filter((r) => r.side === s).map((r) => [r.price, r.size]);
  return { bids: side('Buy'), asks: side('Sell').reverse(), depth: 25 };
}

/** With the clock still and the stream settled, the feed's top levels are the REST snapshot's. */
async function expectBookEqualsRest(exchange: ExchangeId, feed: OrderFlowFeed): Promise<void> {
  stopClock();
  await waitFor('a live book', () => feed.book().status === 'live');
  let version = -1;
  while (feed.book().version !== version) {
    version = feed.book().version;
    await sleep(150);
  }
  const rest = await restBook(exchange);
  const view = feed.book(rest.depth);
  const mine = (levels: readonly { p: number; s: number }[]): Rows => levels.map((l) => [l.p, l.s]);
  expect(view.bids.length).toBeGreaterThan(10);
  expect(mine(view.bids)).toEqual(rest.bids.slice(0, rest.depth));
  expect(mine(view.asks)).toEqual(rest.asks.slice(0, rest.depth));
  expect(view.status).toBe('live');
}

beforeAll(async () => {
  sim = await startSim({ market, pushIntervalMs: 10 });
  for (const ex of EXCHANGES) setRestingOrderSource(market, ex, () => []);
});
afterEach(async () => {
  tamper = null;
  stopClock();
  // Each test starts from its own feed (a released one lingers a second before it closes).
  await waitFor('the feeds closed', () => openOrderFlowCount() === 0, 3_000);
});
afterAll(async () => {
  await sim.close();
});

describe.each(EXCHANGES)('%s order flow on the simulator', (exchange) => {
  it('keeps a local book equal to the REST snapshot, and a trades tape', async () => {
    const handle = open(exchange);
    const { feed } = handle;
    try {
      runClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      await waitFor('trades', () => feed.trades().length >= 5);
      await sleep(500);
      const prints = feed.trades();
      expect(prints[0]!.time).toBeGreaterThanOrEqual(prints[prints.length - 1]!.time);
      expect(prints.every((t) => t.s > 0 && t.p > 0 && t.count >= 1)).toBe(true);
      await expectBookEqualsRest(exchange, feed);
      expect(feed.stats).toMatchObject({ gaps: 0, checksumFailures: 0, resyncs: 0, reconnects: 0 });
    } finally {
      handle.release();
    }
    // The last release closes the feed (a second later: a panel re-taking it in between keeps it).
    await waitFor('the feed closed', () => openOrderFlowCount() === 0, 3_000);
  }, 40_000);

  it('a dropped message is a gap: it resyncs from a snapshot', async () => {
    const handle = open(exchange);
    const { feed } = handle;
    try {
      runClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      await sleep(300);
      let dropped = 0;
      tamper = (text) => (dropped === 0 && isBookUpdate(exchange, text) ? ((dropped += 1), null) : text);
      await waitFor('the gap', () => feed.stats.gaps >= 1);
      await waitFor('the resync', () => feed.stats.resyncs >= 1);
      expect(dropped).toBe(1);
      await expectBookEqualsRest(exchange, feed);
    } finally {
      handle.release();
    }
  }, 60_000);

  it('a dropped socket reconnects and resyncs', async () => {
    const handle = open(exchange);
    const { feed } = handle;
    try {
      runClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      await sleep(300);
      const statuses: string[] = [];
      const stop = feed.onChange(() => statuses.push(feed.book().status));
      const r = (await (await fetch(`${sim.base}/sim/_control/drop-sockets?exchange=${exchange}`, { method: 'POST' })).json()) as { dropped: number };
      expect(r.dropped).toBeGreaterThan(0);
      await waitFor('the reconnect', () => feed.stats.reconnects >= 1 && feed.stats.resyncs >= 1);
      stop();
      expect(statuses).toContain('reconnecting');
      await expectBookEqualsRest(exchange, feed);
    } finally {
      handle.release();
    }
  }, 60_000);
});

describe('binance book while the market moves', () => {
  it('keeps every level equal to the REST depth after the price moved far beyond the top levels', async () => {
    const handle = open('binance');
    const { feed } = handle;
    try {
      runClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      const start = feed.book(1).bids[0]!.p;
      // Many simulated minutes at a fast clock, streaming all the way: levels enter and leave the book.
      const fast = setInterval(() => clock.advance(400), 10);
      try {
        await waitFor('the price moved', () => Math.abs(feed.book(1).bids[0]!.p - start) > 30 && feed.book().status === 'live', 30_000);
      } finally {
        clearInterval(fast);
      }
      stopClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      let version = -1;
      while (feed.book().version !== version) {
        version = feed.book().version;
        await sleep(150);
      }
      const rest = await restBook('binance');
      const view = feed.book();
      const mine = (levels: readonly { p: number; s: number }[]): Rows => levels.map((l) => [l.p, l.s]);
      // The whole local book, not only its top: a level the market left must be gone from it.
      expect(mine(view.bids)).toEqual(rest.bids);
      expect(mine(view.asks)).toEqual(rest.asks);
      expect(view.bids[0]!.p).toBeLessThan(view.asks[0]!.p);
      // Kept by the diffs alone: no gap papered over by a fresh snapshot.
      expect(feed.stats).toMatchObject({ gaps: 0, resyncs: 0 });
    } finally {
      handle.release();
    }
  }, 60_000);
});

describe('okx checksum', () => {
  it('a corrupted update fails the CRC32 checksum: it resyncs from a snapshot', async () => {
    const handle = open('okx');
    const { feed } = handle;
    try {
      runClock();
      await waitFor('a live book', () => feed.book().status === 'live');
      await sleep(300);
      // An update whose best bid's size is changed on the way: the book no longer matches its checksum. Until this
      // feed has heard one (a socket of the previous test's feed, closing after its linger, may take the first).
      tamper = (text) => {
        if (feed.stats.checksumFailures > 0 || !isBookUpdate('okx', text)) return text;
        const f = JSON.parse(text) as { data: Array<{ bids: string[][] }> };
        const best = feed.book(1).bids[0]!;
        f.data[0]!.bids.push([best.price, String(Number(best.size) + 7), '0', '1']);
        return JSON.stringify(f);
      };
      await waitFor('the checksum failure', () => feed.stats.checksumFailures >= 1);
      expect(feed.stats.gaps).toBe(0);
      await waitFor('the resync', () => feed.stats.resyncs >= 1);
      await expectBookEqualsRest('okx', feed);
    } finally {
      handle.release();
    }
  }, 60_000);
});

/** A frame that changes the book after its snapshot (the kind a lost one breaks the chain with). */
function isBookUpdate(exchange: ExchangeId, text: string): boolean {
  if (exchange === 'binance') return text.includes('"depthUpdate"');
  if (exchange === 'bybit') return text.includes('"orderbook.') && text.includes('"delta"');
  if (exchange === 'okx') return text.includes('"books"') && text.includes('"update"');
  // BitMEX has no sequence numbers: a lost insert shows when that level is next updated or deleted.
  return text.includes('"orderBookL2_25"') && text.includes('"insert"');
}
