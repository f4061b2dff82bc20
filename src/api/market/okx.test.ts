import { describe, expect, it } from 'vitest';
import { parseOkxCandles, parseOkxError, parseOkxTickers, parseOkxWsMessage } from './okx';
import { fixture, fixtureIndex, fixtureText } from './testing/fixtures';
import { MarketDataError } from './types';

const EX = 'okx';

describe('okx parsers on the shared fixtures', () => {
  it('candles-swap-1H.json: newest-first rows come back oldest first; volume = volCcy (base coin)', () => {
    const candles = parseOkxCandles(fixture(EX, 'candles-swap-1H.json'), 'BTCUSDT');
    expect(candles.map((c) => c.time)).toEqual([1717200000, 1717203600, 1717207200, 1717210800, 1717214400]);
    expect(candles[0]).toEqual({ time: 1717200000, open: 67505.1, high: 67742.1, low: 67458.3, close: 67622.1, volume: 2750.2761, symbol: 'BTCUSDT' });
  });

  it('candles.doc.json: two rows sharing one ts collapse into one bar', () => {
    const candles = parseOkxCandles(fixture(EX, 'candles.doc.json'), 'BTCUSDT');
    expect(candles).toHaveLength(1);
    expect(candles[0]).toMatchObject({ time: 1597026383.085, open: 3.721, volume: 22698348.04828491 });
  });

  it('every rest-error fixture becomes a MarketDataError with msg, or sMsg when the item carries the reason', () => {
    const errors = fixtureIndex(EX).filter((e) => e.kind === 'rest-error');
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const entry of errors) {
      const body = fixture(EX, entry.file) as { code: string; msg: string; data: { sMsg?: string }[] };
      const error = parseOkxError({ status: 200, ok: true, body });
      expect(error, entry.file).toBeInstanceOf(MarketDataError);
      expect(error?.message).toBe(body.data[0]?.sMsg || body.msg);
    }
    expect(parseOkxError({ status: 200, ok: true, body: fixture(EX, 'error-instrument-not-exist.json') })?.message)
      .toBe("Instrument ID, Instrument ID code or Spread ID doesn't exist.");
    const failure = parseOkxError({ status: 200, ok: true, body: fixture(EX, 'order.failure.json') });
    expect(failure?.message).toBe("You can't place TP limit orders in spot, margin, or options trading.");
    expect(failure?.code).toBe('51094');
    expect(parseOkxError({ status: 200, ok: true, body: fixture(EX, 'candles-swap-1H.json') })).toBeUndefined();
  });

  it('ws-candle.doc.json: the pushed row is a bar', () => {
    expect(parseOkxWsMessage(fixtureText(EX, 'ws-candle.doc.json'), 'BTCUSDT')).toEqual([
      { kind: 'bar', bar: { time: 1597026383.085, open: 8533.02, high: 8553.74, low: 8527.17, close: 8548.26, volume: 529.5858061, symbol: 'BTCUSDT' } },
    ]);
  });

  it('error events carry msg; acks, tickers, trades and login frames are ignored', () => {
    const err = parseOkxWsMessage(fixtureText(EX, 'ws-subscribe.error.doc.json'), 'BTCUSDT');
    expect(err[0]!.kind === 'error' && err[0]!.error.message).toMatch(/^Invalid request/);
    expect(parseOkxWsMessage(fixtureText(EX, 'ws-login.failure.doc.json'), 'BTCUSDT')[0]!.kind).toBe('error');
    for (const entry of fixtureIndex(EX).filter((e) => e.kind === 'ws-message' && !/candle\.doc|error|failure/.test(e.file))) {
      expect(parseOkxWsMessage(fixtureText(EX, entry.file), 'BTCUSDT'), entry.file).toEqual([]);
    }
  });

  it('ws-heartbeat.json describes raw text ping/pong, which never reaches the JSON parser', () => {
    const hb = fixture(EX, 'ws-heartbeat.json') as { send: string; receive: string };
    expect([hb.send, hb.receive]).toEqual(['ping', 'pong']);
  });

  it('tickers: change computed from open24h; instId mapped to our pair', () => {
    const [btc, eth] = parseOkxTickers(fixture(EX, 'tickers-swap.json'));
    expect(btc).toMatchObject({ symbol: 'BTCUSDT', lastPrice: 67583.4, high24h: 68420, low24h: 67011.1, volume24h: 91234.56 });
    expect(btc!.changePercent).toBeCloseTo(((67583.4 - 67995.7) / 67995.7) * 100, 10);
    expect(eth!.symbol).toBe('ETHUSDT');
    expect(parseOkxTickers(fixture(EX, 'tickers-swap.doc.json')).length).toBeGreaterThan(0);
  });
});
