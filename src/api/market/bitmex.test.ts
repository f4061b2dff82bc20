import { describe, expect, it } from 'vitest';
import { parseBitmexError, parseBitmexTickers, parseBitmexUdfHistory, parseBitmexWsMessage } from './bitmex';
import { fixture, fixtureIndex, fixtureText } from './testing/fixtures';
import { MarketDataError } from './types';

const EX = 'bitmex';

describe('bitmex parsers on the shared fixtures', () => {
  it('udf-history-60.json: parallel arrays become bars; t is the bar open in seconds', () => {
    const { candles } = parseBitmexUdfHistory(fixture(EX, 'udf-history-60.json'), 'XBTUSD');
    expect(candles.map((c) => c.time)).toEqual([1717200000, 1717203600, 1717207200, 1717210800, 1717214400]);
    expect(candles[0]).toEqual({ time: 1717200000, open: 67495.5, high: 67577.5, low: 67458, close: 67468, volume: 9960000, symbol: 'XBTUSD' });
  });

  it('the same hour from trade/bucketed (END stamps) lines up with the UDF bar (trap 2)', () => {
    // The bucketed fixture stamps 01:00 for the 00:00–01:00 bucket; the UDF fixture's 00:00 bar holds the same values.
    const bucketed = fixture(EX, 'trade-bucketed-1h.json') as { timestamp: string; open: number; volume: number }[];
    const { candles } = parseBitmexUdfHistory(fixture(EX, 'udf-history-60.json'), 'XBTUSD');
    for (const [i, row] of bucketed.entries()) {
      expect(Date.parse(row.timestamp) / 1000 - 3600).toBe(candles[i]!.time);
      expect(row.open).toBe(candles[i]!.open);
      expect(row.volume).toBe(candles[i]!.volume);
    }
  });

  it('udf-history-no-data.json is an empty page; nextTime is passed on', () => {
    expect(parseBitmexUdfHistory(fixture(EX, 'udf-history-no-data.json'), 'XBTUSD')).toEqual({ candles: [] });
    expect(parseBitmexUdfHistory({ s: 'no_data', nextTime: 1717000000 }, 'XBTUSD')).toEqual({ candles: [], nextTime: 1717000000 });
    expect(() => parseBitmexUdfHistory({ s: 'ok', t: [1], o: [] }, 'XBTUSD')).toThrow(MarketDataError);
  });

  it('every rest-error fixture becomes a MarketDataError with error.message', () => {
    const errors = fixtureIndex(EX).filter((e) => e.kind === 'rest-error');
    expect(errors.length).toBeGreaterThanOrEqual(4);
    for (const entry of errors) {
      const body = fixture(EX, entry.file) as { error: { message: string; name: string } };
      const error = parseBitmexError({ status: 400, ok: false, body });
      expect(error, entry.file).toBeInstanceOf(MarketDataError);
      expect(error?.message).toBe(body.error.message);
    }
    expect(parseBitmexError({ status: 200, ok: true, body: { s: 'error', errmsg: 'Unknown symbol' } })?.message).toBe('Unknown symbol');
    expect(parseBitmexError({ status: 200, ok: true, body: fixture(EX, 'udf-history-no-data.json') })).toBeUndefined();
  });

  it('ws-trade-insert.json: one trade (ms time, price, contracts)', () => {
    expect(parseBitmexWsMessage(fixtureText(EX, 'ws-trade-insert.json'), 'XBTUSD')).toEqual([
      { kind: 'trade', time: Date.parse('2024-06-01T00:05:41.512Z'), price: 67412.5, size: 2500 },
    ]);
  });

  it('ws-tradebin1m-insert.json: the closed bin stamped at its END opens one minute earlier', () => {
    const [ev] = parseBitmexWsMessage(fixtureText(EX, 'ws-tradebin1m-insert.json'), 'XBTUSD');
    expect(ev).toEqual({
      kind: 'bar',
      bar: { time: Date.parse('2019-08-23T14:33:00.000Z') / 1000, open: 10394, high: 10394, low: 10388.5, close: 10388.5, volume: 1204198, symbol: 'XBTUSD' },
    });
  });

  it('partial snapshots, acks, welcome, instrument and private frames are ignored; other symbols too', () => {
    const ignored = fixtureIndex(EX).filter((e) => e.kind === 'ws-message' && !/ws-trade-insert|ws-tradebin1m/.test(e.file));
    expect(ignored.map((e) => e.file)).toContain('ws-trade-partial.json');
    for (const entry of ignored) expect(parseBitmexWsMessage(fixtureText(EX, entry.file), 'XBTUSD'), entry.file).toEqual([]);
    expect(parseBitmexWsMessage(fixtureText(EX, 'ws-trade-insert.json'), 'ETHUSD')).toEqual([]);
  });

  it('a stream error frame becomes an error event', () => {
    const [ev] = parseBitmexWsMessage('{"status":400,"error":"Unknown table: tradeBin3m","meta":{},"request":{}}', 'XBTUSD');
    expect(ev!.kind === 'error' && ev!.error.message).toBe('Unknown table: tradeBin3m');
  });

  it('tickers from instrument/active: lastChangePcnt is a fraction (trap 15)', () => {
    const [xbt] = parseBitmexTickers(fixture(EX, 'instrument-active.json'));
    expect(xbt).toEqual({ symbol: 'XBTUSD', lastPrice: 17027, changePercent: -0.96, high24h: 17259.5, low24h: 16869.5, volume24h: 250400 });
  });
});
