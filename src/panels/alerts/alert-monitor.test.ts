import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert, TriggerAlertResult } from '../../api/contracts/alerts';
import { AlertMonitor, TRIGGER_RETRY_MS } from './alert-monitor';
import { marketKey, PriceFeed, type MarketKey, type PriceListener } from './price-feed';

const T0 = Date.parse('2030-01-01T12:00:00.000Z');
const minute = (ms: number) => Math.floor(ms / 60_000) * 60;

let n = 0;
function alert(patch: Partial<Alert> = {}): Alert {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    exchange: 'binance',
    symbol: 'BTCUSDT',
    initialPrice: 100,
    triggerPrice: 110,
    status: 'active',
    triggeredAt: null,
    triggeredPrice: null,
    note: null,
    createdAt: new Date(T0 - 60_000).toISOString(),
    updatedAt: new Date(T0 - 60_000).toISOString(),
    ...patch,
  };
}

/** Upstream streams opened by the feed, by market key, with a way to push prices into them. */
class FakeStreams {
  readonly open = new Map<string, PriceListener>();
  opened: string[] = [];
  stream = (market: MarketKey, onTick: PriceListener) => {
    const key = marketKey(market);
    this.opened.push(key);
    this.open.set(key, onTick);
    return () => this.open.delete(key);
  };
  push(key: string, price: number, time = minute(Date.now())) {
    const listener = this.open.get(key);
    if (!listener) throw new Error(`${key} is not streamed`);
    listener({ price, time });
  }
}

interface Call {
  id: string;
  price: number;
  resolve: (r: TriggerAlertResult) => void;
  reject: (e: unknown) => void;
}

let streams: FakeStreams;
let feed: PriceFeed;
let calls: Call[];
let fired: Alert[];
let stale: number;
let monitor: AlertMonitor;

const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { isAxiosError: true, response: { status, data: { message: 'x' } } });
const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  streams = new FakeStreams();
  feed = new PriceFeed(streams.stream);
  calls = [];
  fired = [];
  stale = 0;
  monitor = new AlertMonitor({
    watch: (market, listener) => feed.watch(market, listener),
    trigger: (id, price) => new Promise((resolve, reject) => calls.push({ id, price, resolve, reject })),
    onTriggered: (a) => fired.push(a),
    onStale: () => (stale += 1),
  });
});

afterEach(() => {
  monitor.dispose();
  vi.useRealTimers();
});

const triggeredCopy = (a: Alert, price: number): Alert => ({ ...a, status: 'triggered', triggeredPrice: price, triggeredAt: new Date().toISOString() });

describe('AlertMonitor', () => {
  it('subscribes once per distinct exchange + symbol, whatever the number of alerts', () => {
    monitor.update([
      alert(),
      alert({ triggerPrice: 90 }),
      alert({ exchange: 'bybit' }),
      alert({ symbol: 'ETHUSDT' }),
      alert({ status: 'triggered', symbol: 'SOLUSDT' }),
    ]);
    expect(monitor.watchedMarkets().sort()).toEqual(['binance:BTCUSDT', 'binance:ETHUSDT', 'bybit:BTCUSDT']);
    expect(streams.opened.sort()).toEqual(['binance:BTCUSDT', 'binance:ETHUSDT', 'bybit:BTCUSDT']);
    // A new list with the same markets opens nothing new.
    monitor.update([alert(), alert({ exchange: 'bybit' }), alert({ symbol: 'ETHUSDT' })]);
    expect(streams.opened).toHaveLength(3);
  });

  it('calls trigger once when the price crosses from the initial side, notifies, and unsubscribes', async () => {
    const rising = alert({ initialPrice: 100, triggerPrice: 110 });
    monitor.update([rising]);
    streams.push('binance:BTCUSDT', 105);
    streams.push('binance:BTCUSDT', 109.99);
    expect(calls).toHaveLength(0);

    streams.push('binance:BTCUSDT', 110.5);
    streams.push('binance:BTCUSDT', 111); // while the call is in flight: no second call
    expect(calls.map((c) => [c.id, c.price])).toEqual([[rising.id, 110.5]]);

    calls[0]!.resolve({ triggered: true, alert: triggeredCopy(rising, 110.5) });
    await settle();
    expect(fired.map((a) => a.id)).toEqual([rising.id]);
    expect(monitor.watchedMarkets()).toEqual([]);
    expect(streams.open.size).toBe(0);

    // The stale list (before the refetch) still says active: it is not fired again.
    monitor.update([rising]);
    expect(streams.open.size).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('fires a falling alert at or below the trigger, and keeps watching a market that has other alerts', async () => {
    const falling = alert({ initialPrice: 100, triggerPrice: 95 });
    const other = alert({ initialPrice: 100, triggerPrice: 120 });
    monitor.update([falling, other]);
    streams.push('binance:BTCUSDT', 96);
    expect(calls).toHaveLength(0);
    streams.push('binance:BTCUSDT', 95);
    expect(calls.map((c) => c.id)).toEqual([falling.id]);
    calls[0]!.resolve({ triggered: true, alert: triggeredCopy(falling, 95) });
    await settle();
    expect(monitor.watchedMarkets()).toEqual(['binance:BTCUSDT']);
    streams.push('binance:BTCUSDT', 121);
    expect(calls.map((c) => c.id)).toEqual([falling.id, other.id]);
  });

  it('does not notify when another tab fired it first; refetches instead', async () => {
    const a = alert();
    monitor.update([a]);
    streams.push('binance:BTCUSDT', 112);
    calls[0]!.resolve({ triggered: false, alert: triggeredCopy(a, 111) });
    await settle();
    expect(fired).toEqual([]);
    expect(stale).toBe(1);
    // Not judged again until the refetched list says what the alert is now.
    expect(streams.open.size).toBe(0);
    monitor.update([a]);
    expect(streams.open.size).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('judges a moved alert afresh once the list brings the new version', async () => {
    const a = alert({ initialPrice: 100, triggerPrice: 110 });
    monitor.update([a]);
    streams.push('binance:BTCUSDT', 110);
    // Moved in another tab: the server refuses the stale trigger.
    const moved = { ...a, triggerPrice: 130, initialPrice: 110, updatedAt: new Date(T0).toISOString() };
    calls[0]!.resolve({ triggered: false, alert: moved });
    await settle();
    expect(stale).toBe(1);
    monitor.update([moved]);
    streams.push('binance:BTCUSDT', 120);
    expect(calls).toHaveLength(1);
    streams.push('binance:BTCUSDT', 131);
    expect(calls.map((c) => [c.id, c.price])).toEqual([
      [a.id, 110],
      [a.id, 131],
    ]);
  });

  it('unsubscribes a market when its alerts are deleted or triggered, and everything on dispose', () => {
    const btc = alert();
    const eth = alert({ symbol: 'ETHUSDT' });
    monitor.update([btc, eth]);
    expect(streams.open.size).toBe(2);
    monitor.update([eth, { ...btc, status: 'triggered' }]);
    expect([...streams.open.keys()]).toEqual(['binance:ETHUSDT']);
    monitor.update([]);
    expect(streams.open.size).toBe(0);
    monitor.update([btc]);
    expect(streams.open.size).toBe(1);
    monitor.dispose();
    expect(streams.open.size).toBe(0);
  });

  it('retries a failed trigger call after a pause, and gives up on 404 (deleted elsewhere)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const a = alert();
    const gone = alert({ symbol: 'ETHUSDT' });
    monitor.update([a, gone]);
    streams.push('binance:BTCUSDT', 111);
    calls[0]!.reject(httpError(500));
    await settle();
    streams.push('binance:BTCUSDT', 112);
    expect(calls).toHaveLength(1);
    vi.setSystemTime(T0 + TRIGGER_RETRY_MS + 1);
    streams.push('binance:BTCUSDT', 112);
    expect(calls).toHaveLength(2);

    streams.push('binance:ETHUSDT', 200);
    calls[2]!.reject(httpError(404));
    await settle();
    expect(stale).toBe(1);
    expect(monitor.watchedMarkets()).toEqual(['binance:BTCUSDT']);
    expect(fired).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('ignores bars that closed before the alert was set (a back-fill after a reconnect)', () => {
    const a = alert({ updatedAt: new Date(T0).toISOString() });
    monitor.update([a]);
    streams.push('binance:BTCUSDT', 150, minute(T0) - 60); // closed at T0: before or at the alert
    expect(calls).toHaveLength(0);
    streams.push('binance:BTCUSDT', 150, minute(T0));
    expect(calls).toHaveLength(1);
  });
});

describe('PriceFeed', () => {
  it('shares one stream per market, gives late watchers the last price, closes with the last watcher', () => {
    const s = new FakeStreams();
    const f = new PriceFeed(s.stream);
    const a: number[] = [];
    const b: number[] = [];
    const m = { exchange: 'okx', symbol: 'BTCUSDT' } as const;
    const stopA = f.watch(m, (t) => a.push(t.price));
    s.push('okx:BTCUSDT', 1);
    const stopB = f.watch(m, (t) => b.push(t.price));
    s.push('okx:BTCUSDT', 2);
    expect(s.opened).toEqual(['okx:BTCUSDT']);
    expect(a).toEqual([1, 2]);
    expect(b).toEqual([1, 2]);
    stopA();
    expect(s.open.size).toBe(1);
    stopB();
    expect(s.open.size).toBe(0);
    expect(f.last(m)).toBeUndefined();
  });

  it('nextPrice resolves with the first price and lets the stream go', async () => {
    const s = new FakeStreams();
    const f = new PriceFeed(s.stream);
    const next = f.nextPrice({ exchange: 'bybit', symbol: 'ETHUSDT' });
    expect(s.open.size).toBe(1);
    s.push('bybit:ETHUSDT', 3100);
    await expect(next).resolves.toBe(3100);
    expect(s.open.size).toBe(0);
  });
});
