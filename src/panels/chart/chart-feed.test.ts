import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeId } from '../../api/contracts/common';
import { MarketDataError, type Candle, type CandleListener, type FetchCandlesParams, type MarketAdapter, type SubscribeOptions, type SubscribeParams } from '../../api/market';
import { ChartFeed, HISTORY_RETRY_MS, type FeedMarket, type FeedStatus, type FeedTarget } from './chart-feed';

const bar = (symbol: string, time: number, close = 100): Candle => ({ time, open: close, high: close + 1, low: close - 1, close, volume: 1, symbol });
const page = (symbol: string, from: number, count: number, close = 100) => Array.from({ length: count }, (_, i) => bar(symbol, from + i * 60, close));

interface PendingFetch {
  params: FetchCandlesParams;
  resolve: (c: Candle[]) => void;
  reject: (e: unknown) => void;
}
interface Stream {
  params: SubscribeParams;
  emit: CandleListener;
  options: SubscribeOptions;
  stopped: boolean;
}

/** Like a transport that cannot cancel: an aborted request still answers. */
let ignoreAbort = false;

/** An adapter whose every request waits for the test, and whose streams the test drives. */
function fakeAdapter(exchange: ExchangeId) {
  const fetches: PendingFetch[] = [];
  const streams: Stream[] = [];
  const adapter: MarketAdapter = {
    exchange,
    fetchCandles: (params) =>
      new Promise<Candle[]>((resolve, reject) => {
        fetches.push({ params, resolve, reject });
        if (!ignoreAbort) params.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      }),
    subscribe: (params, emit, options = {}) => {
      const stream: Stream = { params, emit, options, stopped: false };
      streams.push(stream);
      return () => {
        stream.stopped = true;
      };
    },
    fetchTickers: () => Promise.resolve([]),
  };
  return { adapter, fetches, streams };
}

function fakeEngine() {
  const calls: string[] = [];
  const target: FeedTarget & { shown: Candle[] } = {
    shown: [],
    setCandles(c) {
      calls.push(`set:${c.length}:${c[0]?.time ?? '-'}`);
      target.shown = [...(c as Candle[])]; // the feed hands over the adapters' candles (with symbol)
    },
    prependCandles(c) {
      calls.push(`prepend:${c.length}`);
      target.shown = [...(c as Candle[]).filter((x) => x.time < (target.shown[0]?.time ?? Infinity)), ...target.shown];
    },
    updateLastCandle(c) {
      calls.push(`update:${(c as Candle).symbol}:${c.time}:${c.close}`);
    },
  };
  return { target, calls };
}

const BTC: FeedMarket = { exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', testnet: false };
const ETH: FeedMarket = { ...BTC, symbol: 'ETHUSDT' };
const flush = () => new Promise<void>((r) => setTimeout(r, 0));

let binance: ReturnType<typeof fakeAdapter>;
let bybit: ReturnType<typeof fakeAdapter>;
let engine: ReturnType<typeof fakeEngine>;
let statuses: FeedStatus[];
let errors: string[];
let prices: number[];
let bars: number[];
let feed: ChartFeed;

beforeEach(() => {
  ignoreAbort = false;
  binance = fakeAdapter('binance');
  bybit = fakeAdapter('bybit');
  engine = fakeEngine();
  statuses = [];
  errors = [];
  prices = [];
  bars = [];
  feed = new ChartFeed(engine.target, (ex) => (ex === 'binance' ? binance.adapter : ex === 'bybit' ? bybit.adapter : null), {
    onStatus: (s) => statuses.push(s),
    onError: (e) => errors.push(e.message),
    onPrice: (p) => prices.push(p),
    onBars: (n) => bars.push(n),
  });
});

afterEach(() => {
  feed.dispose();
  vi.useRealTimers();
});

describe('ChartFeed', () => {
  it('loads the latest page, then streams from the newest bar it loaded', async () => {
    feed.show(BTC);
    expect(statuses).toEqual(['loading']);
    expect(binance.fetches[0].params).toMatchObject({ symbol: 'BTCUSDT', interval: '5m', testnet: false });
    expect(binance.fetches[0].params.endTime).toBeUndefined();
    binance.fetches[0].resolve(page('BTCUSDT', 6000, 300, 64000));
    await flush();
    expect(statuses).toEqual(['loading', 'ready']);
    expect(engine.target.shown).toHaveLength(300);
    expect(binance.streams[0].params).toMatchObject({ symbol: 'BTCUSDT', interval: '5m', since: 6000 + 299 * 60 });
    binance.streams[0].emit(bar('BTCUSDT', 6000 + 299 * 60, 64010));
    binance.streams[0].emit(bar('BTCUSDT', 6000 + 300 * 60, 64020));
    expect(engine.calls.slice(-2)).toEqual([`update:BTCUSDT:${6000 + 299 * 60}:64010`, `update:BTCUSDT:${6000 + 300 * 60}:64020`]);
    expect(prices).toEqual([64000, 64010, 64020]);
    expect(bars).toEqual([300, 301]);
    expect(feed.barCount()).toBe(301);
  });

  it('never applies a slow answer for the previous pair to the new one (stale-response guard)', async () => {
    ignoreAbort = true;
    feed.show(BTC);
    const slowBtc = binance.fetches[0];
    feed.show(ETH);
    expect(engine.calls).toEqual(['set:0:-', 'set:0:-']); // cleared at once on the switch
    binance.fetches[1].resolve(page('ETHUSDT', 9000, 10, 3000));
    await flush();
    expect(slowBtc.params.signal?.aborted).toBe(true);
    // The old request was aborted; its answer arriving anyway is dropped.
    slowBtc.resolve(page('BTCUSDT', 6000, 300, 64000));
    await flush();
    expect(engine.target.shown.every((c) => c.symbol === 'ETHUSDT')).toBe(true);
    expect(engine.target.shown).toHaveLength(10);
    expect(binance.streams).toHaveLength(1);
    expect(binance.streams[0].params.symbol).toBe('ETHUSDT');
    expect(prices).toEqual([3000]);
  });

  it('closes the old stream on a switch and ignores frames it still delivers', async () => {
    feed.show(BTC);
    binance.fetches[0].resolve(page('BTCUSDT', 6000, 5));
    await flush();
    const btcStream = binance.streams[0];
    feed.show({ ...BTC, interval: '1h' });
    expect(btcStream.stopped).toBe(true);
    btcStream.emit(bar('BTCUSDT', 7000, 1));
    expect(engine.calls.filter((c) => c.startsWith('update'))).toEqual([]);
    expect(binance.fetches[1].params.interval).toBe('1h');
  });

  it('switching exchange uses that exchange’s adapter', async () => {
    feed.show(BTC);
    feed.show({ ...BTC, exchange: 'bybit' });
    expect(bybit.fetches).toHaveLength(1);
    bybit.fetches[0].resolve(page('BTCUSDT', 100, 3));
    await flush();
    expect(bybit.streams).toHaveLength(1);
    expect(binance.streams).toHaveLength(0);
  });

  it('pages history before the oldest bar when the engine asks, once at a time', async () => {
    feed.show(BTC);
    binance.fetches[0].resolve(page('BTCUSDT', 60_000, 300));
    await flush();
    feed.loadHistory(60_000);
    feed.loadHistory(60_000); // already loading: ignored
    expect(binance.fetches).toHaveLength(2);
    expect(binance.fetches[1].params.endTime).toBe(60_000 * 1000 - 1);
    binance.fetches[1].resolve(page('BTCUSDT', 60_000 - 300 * 60, 300));
    await flush();
    expect(engine.calls).toContain('prepend:300');
    expect(feed.barCount()).toBe(600);
  });

  it('drops a history page that arrives after a switch', async () => {
    feed.show(BTC);
    binance.fetches[0].resolve(page('BTCUSDT', 60_000, 300));
    await flush();
    ignoreAbort = true;
    feed.loadHistory(60_000);
    const history = binance.fetches[1];
    feed.show(ETH);
    history.resolve(page('BTCUSDT', 0, 300));
    await flush();
    expect(engine.calls.filter((c) => c.startsWith('prepend'))).toEqual([]);
  });

  it('retries a failed history page, then reports it and stops asking', async () => {
    vi.useFakeTimers();
    feed.show(BTC);
    binance.fetches[0].resolve(page('BTCUSDT', 60_000, 300));
    await vi.advanceTimersByTimeAsync(0);
    feed.loadHistory(60_000);
    for (let i = 0; i <= HISTORY_RETRY_MS.length; i++) {
      binance.fetches[binance.fetches.length - 1].reject(new MarketDataError('binance', 'Too many requests.'));
      await vi.advanceTimersByTimeAsync(HISTORY_RETRY_MS[i] ?? 0);
    }
    expect(binance.fetches).toHaveLength(2 + HISTORY_RETRY_MS.length);
    expect(errors).toEqual(['Too many requests.']);
    expect(engine.calls.at(-1)).toBe('prepend:0');
  });

  it("reports the exchange's message once per market, and the status turns to error", async () => {
    feed.show({ ...BTC, symbol: 'NOPEUSDT' });
    binance.fetches[0].reject(new MarketDataError('binance', 'Invalid symbol.', -1121, 400));
    await flush();
    expect(statuses).toEqual(['loading', 'error']);
    expect(errors).toEqual(['Invalid symbol.']);
    // A stream that keeps failing on reconnect toasts once.
    feed.show(BTC);
    binance.fetches[1].resolve(page('BTCUSDT', 6000, 2));
    await flush();
    binance.streams[0].options.onError?.(new MarketDataError('binance', 'Stream closed'));
    binance.streams[0].options.onError?.(new MarketDataError('binance', 'Stream closed'));
    expect(errors).toEqual(['Invalid symbol.', 'Stream closed']);
  });

  it('Retry loads the market shown again after a failure and reports a new failure again', async () => {
    feed.show(BTC);
    binance.fetches[0].reject(new MarketDataError('binance', 'Service unavailable', undefined, 503));
    await flush();
    feed.reload();
    expect(binance.fetches).toHaveLength(2);
    expect(binance.fetches[1].params).toMatchObject({ symbol: 'BTCUSDT', interval: '5m' });
    binance.fetches[1].reject(new MarketDataError('binance', 'Service unavailable', undefined, 503));
    await flush();
    expect(errors).toEqual(['Service unavailable', 'Service unavailable']);
    feed.reload();
    binance.fetches[2].resolve(page('BTCUSDT', 6000, 5));
    await flush();
    expect(statuses).toEqual(['loading', 'error', 'loading', 'error', 'loading', 'ready']);
    expect(engine.target.shown).toHaveLength(5);
  });

  it('an empty answer is a market with no bars, not an error', async () => {
    feed.show(BTC);
    binance.fetches[0].resolve([]);
    await flush();
    expect(statuses).toEqual(['loading', 'empty']);
    expect(binance.streams[0].params.since).toBeUndefined();
  });

  it('dispose aborts, unsubscribes and ignores late answers', async () => {
    feed.show(BTC);
    binance.fetches[0].resolve(page('BTCUSDT', 6000, 3));
    await flush();
    feed.loadHistory(6000);
    feed.dispose();
    expect(binance.streams[0].stopped).toBe(true);
    binance.fetches[1].resolve(page('BTCUSDT', 0, 3));
    await flush();
    expect(engine.calls.filter((c) => c.startsWith('prepend'))).toEqual([]);
    feed.show(ETH);
    expect(binance.fetches).toHaveLength(2);
  });

  it('showing the same market again does nothing', () => {
    feed.show(BTC);
    feed.show({ ...BTC });
    expect(binance.fetches).toHaveLength(1);
  });

  it('an exchange without an address is an error', () => {
    feed.show({ ...BTC, exchange: 'okx' });
    expect(statuses).toEqual(['error']);
    expect(errors).toEqual(['No market data address for okx']);
  });
});
