import { describe, expect, it } from 'vitest';
import { bybitVolumeColumn, isBybitPong, parseBybitError, parseBybitKlines, parseBybitTickers, parseBybitWsMessage } from './bybit';
import { fixture, fixtureIndex, fixtureText } from './testing/fixtures';
import { MarketDataError } from './types';

const EX = 'bybit';

describe('bybit parsers on the shared fixtures', () => {
  it('kline-linear.json: newest-first rows come back oldest first; volume = turnover (USDT, index 6)', () => {
    const candles = parseBybitKlines(fixture(EX, 'kline-linear.json'), 'BTCUSDT', 'linear');
    expect(candles.map((c) => c.time)).toEqual([1717200000, 1717203600, 1717207200, 1717210800, 1717214400]);
    expect(candles[0]).toEqual({ time: 1717200000, open: 67480, high: 67557.1, low: 67240.4, close: 67265.7, volume: 510035909.9194, symbol: 'BTCUSDT' });
    // The newest row (list[0] on the wire) is the forming bar and ends the array.
    expect(candles[4]!.close).toBe(67187.3);
  });

  it('kline-inverse.doc.json: volume = USD contracts (index 5), not the BTC turnover', () => {
    const candles = parseBybitKlines(fixture(EX, 'kline-inverse.doc.json'), 'BTCUSD', 'inverse');
    expect(candles.map((c) => c.time)).toEqual([1670601600, 1670605200, 1670608800]);
    expect(candles[2]).toMatchObject({ open: 17071, close: 17055.5, volume: 268611 });
    expect(bybitVolumeColumn('inverse')).toBe(5);
    expect(bybitVolumeColumn('linear')).toBe(6);
  });

  it('every rest-error fixture (HTTP 200!) becomes a MarketDataError with retMsg', () => {
    const errors = fixtureIndex(EX).filter((e) => e.kind === 'rest-error' || e.file.includes('failure'));
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const entry of errors) {
      const body = fixture(EX, entry.file) as { retCode: number; retMsg: string };
      const error = parseBybitError({ status: 200, ok: true, body });
      expect(error, entry.file).toBeInstanceOf(MarketDataError);
      expect(error?.message).toBe(body.retMsg);
      expect(error?.code).toBe(body.retCode);
      expect(error?.status).toBe(200);
    }
    expect(parseBybitError({ status: 200, ok: true, body: fixture(EX, 'error-not-supported-symbol.json') })?.message).toBe('Not supported symbols');
    expect(parseBybitError({ status: 200, ok: true, body: fixture(EX, 'kline-linear.json') })).toBeUndefined();
    expect(parseBybitError({ status: 403, ok: false, body: 'access too frequent' })?.message).toBe('access too frequent');
  });

  it('ws-kline.doc.json: a forming 5m bar, numbers from strings, turnover as linear volume', () => {
    const events = parseBybitWsMessage(fixtureText(EX, 'ws-kline.doc.json'), 'BTCUSDT', 'linear');
    expect(events).toEqual([{ kind: 'bar', bar: { time: 1672324800, open: 16649.5, high: 16677, low: 16608, close: 16677, volume: 34666.4005, symbol: 'BTCUSDT' } }]);
    const inverse = parseBybitWsMessage(fixtureText(EX, 'ws-kline.doc.json'), 'BTCUSD', 'inverse');
    expect(inverse[0]!.kind === 'bar' && inverse[0]!.bar.volume).toBe(2.081);
  });

  it('pongs are recognised (public pong says op "ping"), other frames are not', () => {
    expect(isBybitPong(fixtureText(EX, 'ws-pong.linear.json'))).toBe(true);
    expect(isBybitPong(fixtureText(EX, 'ws-pong.private.json'))).toBe(true);
    expect(isBybitPong(fixtureText(EX, 'ws-subscribe.response.json'))).toBe(false);
    expect(isBybitPong(fixtureText(EX, 'ws-kline.doc.json'))).toBe(false);
  });

  it('every other ws-message fixture is ignored by the candle stream', () => {
    for (const entry of fixtureIndex(EX).filter((e) => e.kind === 'ws-message' && e.file !== 'ws-kline.doc.json')) {
      expect(parseBybitWsMessage(fixtureText(EX, entry.file), 'BTCUSDT', 'linear'), entry.file).toEqual([]);
    }
  });

  it('a failed subscription becomes an error event', () => {
    const events = parseBybitWsMessage('{"success":false,"ret_msg":"error:handler not found,topic:kline.8.BTCUSDT","op":"subscribe"}', 'BTCUSDT', 'linear');
    expect(events[0]!.kind === 'error' && events[0]!.error.message).toBe('error:handler not found,topic:kline.8.BTCUSDT');
  });

  it('tickers: price24hPcnt is a fraction, converted to percent (trap 15)', () => {
    const [btc] = parseBybitTickers(fixture(EX, 'tickers-linear.json'));
    expect(btc).toMatchObject({ symbol: 'BTCUSDT', lastPrice: 67583.4, high24h: 68420, low24h: 67011.1, volume24h: 90432.117 });
    expect(btc!.changePercent).toBeCloseTo(-0.6063, 10);
    expect(parseBybitTickers(fixture(EX, 'tickers-inverse.doc.json'))[0]!.changePercent).toBeCloseTo(14.2425, 10);
  });
});
