import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { planInterval } from './intervals';
import { subscribeLive, type LiveEvent, type LiveSpec } from './live';
import type { NativePage, NativePageRequest } from './pager';
import { FakeSocket } from './testing/fake-socket';
import { MarketDataError, type Candle, type Interval } from './types';

const H = 3600;
const T0 = Date.parse('2024-06-01T08:00:00Z') / 1000; // an 8h boundary
const bar = (time: number, close: number, volume = 1): Candle => ({ time, open: close, high: close, low: close, close, volume, symbol: 'BTCUSDT' });

/** Frames are JSON-encoded LiveEvents, so tests speak the adapter-neutral language directly. */
const spec: LiveSpec = {
  exchange: 'bybit',
  url: 'wss://example.test/v5/public/linear',
  heartbeat: { mode: 'interval', everyMs: 20_000, timeoutMs: 10_000, message: () => 'ping' },
  isPong: (t) => t === 'pong',
  subscribeMessages: ['{"op":"subscribe"}'],
  parse: (text) => JSON.parse(text) as LiveEvent[],
};
const frame = (...events: LiveEvent[]) => JSON.stringify(events);

interface PendingPage {
  req: NativePageRequest;
  resolve: (page: NativePage) => void;
  reject: (err: unknown) => void;
}

function setup(interval: Interval, since?: number) {
  const pending: PendingPage[] = [];
  const fetchPage = (req: NativePageRequest) => new Promise<NativePage>((resolve, reject) => pending.push({ req, resolve, reject }));
  const updates: Candle[] = [];
  const errors: MarketDataError[] = [];
  const statuses: string[] = [];
  const plan = planInterval('bybit', interval);
  const unsubscribe = subscribeLive(spec, fetchPage, plan, { symbol: 'BTCUSDT', interval, testnet: false, category: undefined, since },
    (c) => updates.push(c), { onError: (e) => errors.push(e), onStatus: (s) => statuses.push(s) }, { WebSocket: FakeSocket, now: () => (T0 + 5 * H + 1800) * 1000, backoff: { baseMs: 100, maxMs: 100, random: () => 1 } });
  return { pending, updates, errors, statuses, unsubscribe, plan };
}

const flush = () => new Promise((r) => setImmediate(r));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  FakeSocket.reset();
});
afterEach(() => vi.useRealTimers());

describe('subscribeLive', () => {
  it('seeds an aggregated bar from REST, then folds stream updates of the base bar into it', async () => {
    const { pending, updates } = setup('8h');
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent).toEqual(['{"op":"subscribe"}']);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.req).toMatchObject({ wire: '60', endTime: undefined });
    // The stream speaks before REST answers: held back, replayed after the seed.
    ws.receive(frame({ kind: 'bar', bar: { ...bar(T0 + 5 * H, 105, 3), high: 110 } }));
    expect(updates).toEqual([]);
    pending[0]!.resolve({ candles: [0, 1, 2, 3, 4, 5].map((i) => bar(T0 + i * H, 100 + i, 2)), exhausted: false });
    await flush();
    // Seed: the 8h bar from 6 hourly bars (volume 12), then the held frame (hour 5 now volume 3, high 110).
    expect(updates.map((u) => [u.time, u.close, u.volume, u.high])).toEqual([[T0, 105, 12, 105], [T0, 105, 13, 110]]);
    ws.receive(frame({ kind: 'bar', bar: bar(T0 + 6 * H, 99, 4) }));
    expect(updates.at(-1)).toMatchObject({ time: T0, open: 100, close: 99, volume: 17, low: 99, high: 110 });
    // The next 8h bucket starts a new bar made of its own hours only.
    ws.receive(frame({ kind: 'bar', bar: bar(T0 + 8 * H, 98, 5) }));
    expect(updates.at(-1)).toEqual({ ...bar(T0 + 8 * H, 98, 5) });
  });

  it('never goes back in time: a late frame for a superseded bucket is dropped', async () => {
    const { pending, updates } = setup('1h');
    FakeSocket.last().open();
    pending[0]!.resolve({ candles: [bar(T0 + 5 * H, 1)], exhausted: false });
    await flush();
    FakeSocket.last().receive(frame({ kind: 'bar', bar: bar(T0 + 6 * H, 2) }));
    FakeSocket.last().receive(frame({ kind: 'bar', bar: bar(T0 + 5 * H, 3) }));
    expect(updates.map((u) => u.time)).toEqual([T0 + 5 * H, T0 + 6 * H]);
  });

  it('after a drop: reconnects, resubscribes and back-fills the bars missed meanwhile, in order', async () => {
    const { pending, updates } = setup('1h', T0);
    const first = FakeSocket.last();
    first.open();
    expect(pending[0]!.req.startTime).toBe(T0 * 1000);
    pending[0]!.resolve({ candles: [bar(T0, 1), bar(T0 + H, 2)], exhausted: true });
    await flush();
    expect(updates.map((u) => u.time)).toEqual([T0, T0 + H]);
    first.drop();
    vi.advanceTimersByTime(100);
    const second = FakeSocket.last();
    expect(second).not.toBe(first);
    second.open();
    expect(second.sent).toEqual(['{"op":"subscribe"}']);
    // Back-fill starts at the last bar emitted and walks back until it reaches it.
    expect(pending[1]!.req.startTime).toBe((T0 + H) * 1000);
    pending[1]!.resolve({ candles: [bar(T0 + 3 * H, 4), bar(T0 + 4 * H, 5)], exhausted: false });
    await flush();
    expect(pending[2]!.req.endTime).toBe((T0 + 3 * H) * 1000 - 1);
    pending[2]!.resolve({ candles: [bar(T0, 1), bar(T0 + H, 2.5), bar(T0 + 2 * H, 3)], exhausted: false });
    await flush();
    expect(updates.map((u) => [u.time, u.close])).toEqual([[T0, 1], [T0 + H, 2], [T0 + H, 2.5], [T0 + 2 * H, 3], [T0 + 3 * H, 4], [T0 + 4 * H, 5]]);
  });

  it('a failing back-fill reports the exchange message and the stream carries on', async () => {
    const { pending, updates, errors } = setup('1h');
    FakeSocket.last().open();
    FakeSocket.last().receive(frame({ kind: 'bar', bar: bar(T0, 7) }));
    pending[0]!.reject(new MarketDataError('bybit', 'Too many visits!', 10006, 200));
    await flush();
    expect(errors.map((e) => e.message)).toEqual(['Too many visits!']);
    expect(updates.map((u) => u.close)).toEqual([7]);
  });

  it('stream error frames reach onError at once', () => {
    const { errors } = setup('1h');
    FakeSocket.last().open();
    FakeSocket.last().receive(frame({ kind: 'error', error: new MarketDataError('bybit', 'handler not found') }));
    expect(errors).toHaveLength(1);
  });

  it('trades build the forming bar; trades already inside the REST seed are not counted twice', async () => {
    const pending: PendingPage[] = [];
    const updates: Candle[] = [];
    const nowMs = (T0 + 120) * 1000 + 500;
    subscribeLive(spec, (req) => new Promise<NativePage>((resolve, reject) => pending.push({ req, resolve, reject })), planInterval('bitmex', '3m'),
      { symbol: 'BTCUSDT', interval: '3m', testnet: false, category: undefined, since: undefined }, (c) => updates.push(c), {},
      { WebSocket: FakeSocket, now: () => nowMs });
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(frame({ kind: 'trade', time: nowMs - 200, price: 50, size: 100 })); // already in REST's forming minute
    ws.receive(frame({ kind: 'trade', time: nowMs + 200, price: 130, size: 10 }));
    pending[0]!.resolve({ candles: [bar(T0, 100, 5), { ...bar(T0 + 60, 101, 6), low: 50 }, { ...bar(T0 + 120, 50, 100), open: 102, high: 102, low: 50 }], exhausted: true });
    await flush();
    expect(updates.at(-1)).toMatchObject({ time: T0, open: 100, high: 130, low: 50, close: 130, volume: 121 });
    ws.receive(frame({ kind: 'trade', time: (T0 + 180) * 1000 + 5, price: 131, size: 1 }));
    expect(updates.at(-1)).toMatchObject({ time: T0 + 180, open: 131, high: 131, low: 131, close: 131, volume: 1 });
    // The closed 1m bin (authoritative) replaces the trade-built minute.
    ws.receive(frame({ kind: 'bar', bar: { ...bar(T0 + 180, 128, 40), open: 131, high: 133 } }));
    expect(updates.at(-1)).toMatchObject({ time: T0 + 180, high: 133, close: 128, volume: 40 });
  });

  it('unsubscribe frees everything, even with a back-fill in flight', async () => {
    const { pending, updates, unsubscribe, statuses } = setup('8h');
    const ws = FakeSocket.last();
    ws.open();
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    expect(ws.closedByClient).toBe(true);
    expect(ws.handlersDetached).toBe(true);
    pending[0]!.resolve({ candles: [bar(T0, 1)], exhausted: true });
    await flush();
    vi.advanceTimersByTime(60_000);
    expect(updates).toEqual([]);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(pending).toHaveLength(1);
    expect(statuses).toEqual(['connecting', 'open']); // no callback after unsubscribe
  });
});
