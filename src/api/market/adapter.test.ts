import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { LIVE_ENDPOINTS } from '../../../server/exchanges/endpoints';
import type { ExchangeId } from '../contracts/common';
import { candlesInfiniteQueryOptions, candlesQueryOptions, createMarketAdapter, MarketDataError } from './index';
import { fixtureText } from './testing/fixtures';

interface Call {
  url: URL;
  headers: Record<string, string>;
}

/** A fetch that records every request and answers from a routing function (status + body text). */
function fakeFetch(route: (url: URL) => { status?: number; body: string }) {
  const calls: Call[] = [];
  const fetch = async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'https://terminal.test');
    calls.push({ url, headers: { ...(init?.headers as Record<string, string> | undefined) } });
    const { status = 200, body } = route(url);
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

const NOW = Date.parse('2024-06-01T05:30:00Z');
const adapter = (exchange: ExchangeId, route: (url: URL) => { status?: number; body: string }) => {
  const f = fakeFetch(route);
  return { ...f, market: createMarketAdapter(exchange, LIVE_ENDPOINTS[exchange], { fetch: f.fetch, now: () => NOW }) };
};

describe('the calls each adapter makes (SPEC §7)', () => {
  it('binance: GET /fapi/v1/klines on the testnet host when testnet is on, limit 300', async () => {
    const { market, calls } = adapter('binance', () => ({ body: fixtureText('binance', 'klines.json') }));
    const candles = await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1m', endTime: 1717200299999, testnet: true });
    expect(candles).toHaveLength(5);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url.origin + calls[0]!.url.pathname).toBe('https://demo-fapi.binance.com/fapi/v1/klines');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ symbol: 'BTCUSDT', interval: '1m', endTime: '1717200299999', limit: '300' });
    await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1m', testnet: false });
    expect(calls[1]!.url.host).toBe('fapi.binance.com');
    expect(calls[1]!.url.searchParams.has('endTime')).toBe(false);
  });

  it('bybit: GET /v5/market/kline with category and end; errors arrive with HTTP 200', async () => {
    const { market, calls } = adapter('bybit', (url) => ({
      body: fixtureText('bybit', url.searchParams.get('symbol') === 'NOPE' ? 'error-not-supported-symbol.json' : 'kline-inverse.doc.json'),
    }));
    const candles = await market.fetchCandles({ symbol: 'BTCUSD', interval: '1h', endTime: 1670608800000, testnet: false });
    expect(candles.map((c) => c.volume)).toEqual([6356, 4177, 268611]);
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ category: 'inverse', symbol: 'BTCUSD', interval: '60', end: '1670608800000', limit: '300' });
    await expect(market.fetchCandles({ symbol: 'NOPE', interval: '1h', testnet: false, category: 'linear' })).rejects.toMatchObject({ name: 'MarketDataError', message: 'Not supported symbols', code: 10001 });
  });

  it('bitmex: GET /api/udf/history through our proxy, resolution/from/to in seconds; no_data is empty', async () => {
    const { market, calls } = adapter('bitmex', (url) => ({ body: fixtureText('bitmex', url.pathname.includes('testnet') ? 'udf-history-no-data.json' : 'udf-history-60.json') }));
    const candles = await market.fetchCandles({ symbol: 'XBTUSD', interval: '1h', endTime: 1717214400000, testnet: false });
    expect(candles).toHaveLength(5);
    expect(calls[0]!.url.pathname).toBe('/v1/proxy/bitmex-mainnet/api/udf/history');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ symbol: 'XBTUSD', resolution: '60', from: String(1717214400 - 299 * 3600), to: '1717214400' });
    expect(await market.fetchCandles({ symbol: 'XBTUSD', interval: '1h', testnet: true })).toEqual([]);
    expect(calls[1]!.url.pathname).toBe('/v1/proxy/bitmex-testnet/api/udf/history');
  });

  it('bitmex: an HTTP error toasts error.message', async () => {
    const { market } = adapter('bitmex', () => ({ status: 503, body: fixtureText('bitmex', 'error-overloaded.json') }));
    await expect(market.fetchCandles({ symbol: 'XBTUSD', interval: '1m', testnet: false })).rejects.toThrow('The system is currently overloaded. Please try again later.');
  });

  it('okx: candles then history-candles through the proxy, instId/bar/after/limit 300, demo header on testnet', async () => {
    const { market, calls } = adapter('okx', (url) => ({ body: url.pathname.endsWith('/history-candles') ? '{"code":"0","msg":"","data":[]}' : fixtureText('okx', 'candles-swap-1H.json') }));
    const latest = await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1h', testnet: true });
    expect(latest.map((c) => c.time)).toEqual([1717200000, 1717203600, 1717207200, 1717210800, 1717214400]);
    expect(calls[0]!.url.pathname).toBe('/v1/proxy/okx-mainnet-testnet/api/v5/market/candles');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ instId: 'BTC-USDT-SWAP', bar: '1H', limit: '300' });
    expect(calls[0]!.headers).toEqual({ 'x-simulated-trading': '1' });
    // Two years back is beyond /candles' 1,440 bars: history-candles, `after` exclusive → endTime + 1.
    const old = Date.parse('2022-06-01T00:00:00Z');
    expect(await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1h', endTime: old, testnet: false })).toEqual([]);
    expect(calls[1]!.url.pathname).toBe('/v1/proxy/okx-mainnet-testnet/api/v5/market/history-candles');
    expect(calls[1]!.url.searchParams.get('after')).toBe(String(old + 1));
    expect(calls[1]!.headers).toEqual({});
  });

  it('okx: UTC-aligned daily bars, 8h aggregated from 1H', async () => {
    const { market, calls } = adapter('okx', () => ({ body: '{"code":"0","msg":"","data":[]}' }));
    await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1d', testnet: false });
    await market.fetchCandles({ symbol: 'BTCUSD', interval: '8h', testnet: false });
    expect(calls.map((c) => [c.url.searchParams.get('instId'), c.url.searchParams.get('bar')])).toEqual([['BTC-USDT-SWAP', '1Dutc'], ['BTC-USD-SWAP', '1H']]);
  });

  it('a network failure is a MarketDataError; an abort stays an abort', async () => {
    const market = createMarketAdapter('binance', LIVE_ENDPOINTS.binance, { fetch: async () => { throw new TypeError('Failed to fetch'); } });
    const err = await market.fetchCandles({ symbol: 'BTCUSDT', interval: '1m', testnet: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarketDataError);
    expect((err as Error).message).toBe('Failed to fetch');
    const aborting = createMarketAdapter('binance', LIVE_ENDPOINTS.binance, { fetch: async () => { throw new DOMException('aborted', 'AbortError'); } });
    await expect(aborting.fetchCandles({ symbol: 'BTCUSDT', interval: '1m', testnet: false })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('tickers per exchange, percent units normalised', async () => {
    const files: Record<ExchangeId, [string, string]> = {
      binance: ['binance', 'ticker-24hr-all.json'], bybit: ['bybit', 'tickers-linear.json'], okx: ['okx', 'tickers-swap.json'], bitmex: ['bitmex', 'instrument-active.json'],
    };
    const paths: string[] = [];
    for (const ex of ['binance', 'bybit', 'okx', 'bitmex'] as const) {
      const { market, calls } = adapter(ex, () => ({ body: fixtureText(...files[ex]) }));
      const [first] = await market.fetchTickers({ testnet: false });
      expect(Math.abs(first!.changePercent)).toBeLessThan(1);
      paths.push(calls.map((c) => c.url.pathname + c.url.search).join('|'));
    }
    expect(paths).toEqual(['/fapi/v1/ticker/24hr', '/v5/market/tickers?category=linear|/v5/market/tickers?category=inverse', '/v1/proxy/okx-mainnet-testnet/api/v5/market/tickers?instType=SWAP', '/v1/proxy/bitmex-mainnet/api/v1/instrument/active']);
  });
});

describe('react-query options', () => {
  it('candles are stale after 100 ms (SPEC §9) and keyed by everything that changes the answer', async () => {
    const { market, calls } = adapter('binance', () => ({ body: fixtureText('binance', 'klines.json') }));
    const opts = candlesQueryOptions(market, { symbol: 'BTCUSDT', interval: '1m', testnet: false });
    expect(opts.staleTime).toBe(100);
    expect(opts.queryKey).toEqual(['market', 'candles', 'binance', 'BTCUSDT', '1m', false, null, null]);
    const client = new QueryClient();
    // The test's clock (Date only; timers stay real): freshness does not depend on how fast this runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_717_200_000_000);
      expect(await client.fetchQuery(opts)).toHaveLength(5);
      vi.setSystemTime(1_717_200_000_099);
      await client.fetchQuery(opts); // 99 ms old, fresh: served from the cache
      expect(calls).toHaveLength(1);
      vi.setSystemTime(1_717_200_000_100);
      await client.fetchQuery(opts); // stale at 100 ms: refetched
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
      client.clear();
    }
  });

  it('the infinite query pages backwards from the oldest bar loaded', async () => {
    const { market, calls } = adapter('binance', () => ({ body: fixtureText('binance', 'klines.json') }));
    const client = new QueryClient();
    const opts = candlesInfiniteQueryOptions(market, { symbol: 'BTCUSDT', interval: '1m', testnet: false });
    const first = await client.fetchInfiniteQuery(opts);
    expect(opts.getNextPageParam(first.pages[0]!, first.pages, undefined, first.pageParams)).toBe(1717200000000 - 1);
    expect(calls[0]!.url.searchParams.has('endTime')).toBe(false);
    client.clear();
  });
});
