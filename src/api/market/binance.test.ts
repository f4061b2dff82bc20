import { describe, expect, it } from 'vitest';
import { parseBinanceError, parseBinanceKlines, parseBinanceTickers, parseBinanceWsMessage } from './binance';
import { fixture, fixtureIndex, fixtureText } from './testing/fixtures';
import { MarketDataError } from './types';

const EX = 'binance';

describe('binance parsers on the shared fixtures', () => {
  it('klines.json: numbers, seconds, base volume, oldest first', () => {
    const candles = parseBinanceKlines(fixture(EX, 'klines.json'), 'BTCUSDT');
    expect(candles).toHaveLength(5);
    expect(candles[0]).toEqual({ time: 1717200000, open: 67512.3, high: 67518.4, low: 67457.4, close: 67483.8, volume: 120.183, symbol: 'BTCUSDT' });
    expect(candles.map((c) => c.time)).toEqual([1717200000, 1717200060, 1717200120, 1717200180, 1717200240]);
  });

  it('rejects a body that is not a klines array', () => {
    expect(() => parseBinanceKlines({ code: -1121, msg: 'Invalid symbol.' }, 'X')).toThrow(MarketDataError);
    expect(() => parseBinanceKlines([[1717200000000, 'abc', '1', '1', '1', '1']], 'X')).toThrow(/Malformed open/);
  });

  it('every rest-error fixture becomes a MarketDataError carrying msg and code', () => {
    const errors = fixtureIndex(EX).filter((e) => e.kind === 'rest-error');
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const entry of errors) {
      const body = fixture(EX, entry.file) as { code: number; msg: string };
      const error = parseBinanceError({ status: 400, ok: false, body });
      expect(error, entry.file).toBeInstanceOf(MarketDataError);
      expect(error?.message).toBe(body.msg);
      expect(error?.code).toBe(body.code);
      expect(error?.exchange).toBe('binance');
    }
    expect(parseBinanceError({ status: 400, ok: false, body: fixture(EX, 'error-invalid-symbol.json') })?.message).toBe('Invalid symbol.');
  });

  it('success bodies shaped {code,msg} are not errors (trap 9)', () => {
    expect(parseBinanceError({ status: 200, ok: true, body: fixture(EX, 'margin-type.response.json') })).toBeUndefined();
    expect(parseBinanceError({ status: 200, ok: true, body: fixture(EX, 'algo-order-cancel.response.json') })).toBeUndefined();
    expect(parseBinanceError({ status: 200, ok: true, body: fixture(EX, 'klines.json') })).toBeUndefined();
  });

  it('gateway failures without a binance body still give a message', () => {
    expect(parseBinanceError({ status: 502, ok: false, body: '<html>Bad gateway</html>' })?.message).toBe('binance answered HTTP 502');
    expect(parseBinanceError({ status: 502, ok: false, body: { message: 'Upstream unreachable' } })?.message).toBe('Upstream unreachable');
  });

  it('ws-kline.json (raw) and ws-kline.combined.json give the same forming bar', () => {
    const raw = parseBinanceWsMessage(fixtureText(EX, 'ws-kline.json'), 'BTCUSDT');
    const combined = parseBinanceWsMessage(fixtureText(EX, 'ws-kline.combined.json'), 'BTCUSDT');
    expect(raw).toEqual([{ kind: 'bar', bar: { time: 1717200240, open: 67364.2, high: 67402.5, low: 67350.1, close: 67391, volume: 88.412, symbol: 'BTCUSDT' } }]);
    expect(combined).toEqual(raw);
    const doc = parseBinanceWsMessage(fixtureText(EX, 'ws-kline.doc.json'), 'BTCUSDT');
    expect(doc[0]).toMatchObject({ kind: 'bar', bar: { time: 1638747660, open: 0.001, close: 0.002, volume: 1000 } });
  });

  it('every other ws-message fixture is ignored by the candle stream, without throwing', () => {
    for (const entry of fixtureIndex(EX).filter((e) => e.kind === 'ws-message' && !e.file.startsWith('ws-kline'))) {
      expect(parseBinanceWsMessage(fixtureText(EX, entry.file), 'BTCUSDT'), entry.file).toEqual([]);
    }
  });

  it('a stream error frame becomes an error event', () => {
    const events = parseBinanceWsMessage('{"error":{"code":2,"msg":"Invalid request: unknown variant"},"id":1}', 'BTCUSDT');
    expect(events).toHaveLength(1);
    expect(events[0]!.kind === 'error' && events[0]!.error.message).toBe('Invalid request: unknown variant');
  });

  it('tickers: priceChangePercent is already percent (trap 15)', () => {
    const [btc, eth] = parseBinanceTickers(fixture(EX, 'ticker-24hr-all.json'));
    expect(btc).toEqual({ symbol: 'BTCUSDT', lastPrice: 67583.4, changePercent: -0.606, high24h: 68420, low24h: 67011.1, volume24h: 151234.567 });
    expect(eth!.changePercent).toBe(0.574);
    expect(parseBinanceTickers(fixture(EX, 'ticker-24hr-all.doc.json'))[0]!.changePercent).toBe(-95.96);
  });
});
