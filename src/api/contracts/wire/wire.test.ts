import { describe, expect, it } from 'vitest';
import { fixture, fixtureIndex } from '../../market/testing/fixtures';
import { binanceCandleRows } from './binance';
import { bitmexBinRows, bitmexUdfHistory } from './bitmex';
import { bybitCandleRows } from './bybit';
import { WireFormatError, type WireCandle } from './common';
import { okxCandleRows } from './okx';

/**
 * The one candle parser per exchange (browser and server alike) on every recorded answer of
 * `tests/fixtures/exchanges/<exchange>/_index.json`: each candle answer parses, each error envelope
 * throws with the exchange's own message and code. New fixtures are covered by their index entry.
 */
type Exchange = 'binance' | 'bybit' | 'okx' | 'bitmex';

interface Case {
  /** Which index entries are candle answers (by their endpoint), and the parser for one. */
  candles: (endpoint: string) => ((body: unknown) => WireCandle[]) | undefined;
  /** Every rest-error body through the candle parser (the parser the error is read with). */
  parse: (body: unknown) => unknown;
  /** What the exchange's envelope says, read off the recorded body by hand. */
  expected: (body: never) => { message: string; code?: string | number };
}

const CASES: Record<Exchange, Case> = {
  binance: {
    candles: (endpoint) => (endpoint.includes('/fapi/v1/klines') ? (b) => binanceCandleRows(b) : undefined),
    parse: (b) => binanceCandleRows(b),
    expected: (b: { msg: string; code: number }) => ({ message: b.msg, code: b.code }),
  },
  bybit: {
    candles: (endpoint) => (endpoint.includes('/v5/market/kline') ? (b) => bybitCandleRows(b, endpoint.includes('category=inverse') ? 'inverse' : 'linear') : undefined),
    parse: (b) => bybitCandleRows(b),
    expected: (b: { retMsg: string; retCode: number }) => ({ message: b.retMsg, code: b.retCode }),
  },
  okx: {
    candles: (endpoint) => (endpoint.includes('/api/v5/market/candles') || endpoint.includes('/history-candles') ? (b) => okxCandleRows(b) : undefined),
    parse: (b) => okxCandleRows(b),
    expected: (b: { msg?: string; code: string; data: Array<{ sMsg?: string; sCode?: string }> }) => {
      const item = b.data.find((d) => d.sMsg);
      return item ? { message: item.sMsg!, code: item.sCode } : { message: b.msg!, code: b.code };
    },
  },
  bitmex: {
    candles: (endpoint) => {
      if (endpoint.includes('/api/udf/history')) return (b) => bitmexUdfHistory(b).candles;
      const bin = /\/api\/v1\/trade\/bucketed\?binSize=(1m|5m|1h|1d)/.exec(endpoint)?.[1];
      return bin ? (b) => bitmexBinRows(b, { '1m': 60, '5m': 300, '1h': 3600, '1d': 86400 }[bin as '1m']) : undefined;
    },
    parse: (b) => bitmexBinRows(b, 3600),
    expected: (b: { error: { message: string; name: string } }) => ({ message: b.error.message, code: b.error.name }),
  },
};

const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe.each(Object.keys(CASES) as Exchange[])('%s wire parser', (exchange) => {
  const c = CASES[exchange];

  it('parses every recorded candle answer: numbers, seconds, oldest first, one bar per time', () => {
    const answers = fixtureIndex(exchange).filter((e) => e.kind === 'rest-response' && c.candles(e.endpoint));
    expect(answers.length, `${exchange} has recorded candle answers`).toBeGreaterThan(0);
    let bars = 0;
    for (const entry of answers) {
      const candles = c.candles(entry.endpoint)!(fixture(exchange, entry.file));
      bars += candles.length;
      for (const [i, k] of candles.entries()) {
        for (const v of [k.time, k.open, k.high, k.low, k.close, k.volume]) expect(Number.isFinite(v), entry.file).toBe(true);
        expect(k.time, entry.file).toBeGreaterThan(1e9); // seconds, not ms
        expect(k.time, entry.file).toBeLessThan(1e11);
        expect(k.high, entry.file).toBeGreaterThanOrEqual(Math.max(k.low, k.open, k.close));
        expect(k.low, entry.file).toBeLessThanOrEqual(Math.min(k.open, k.close));
        if (i > 0) expect(k.time, entry.file).toBeGreaterThan(candles[i - 1]!.time);
      }
    }
    expect(bars).toBeGreaterThan(1);
  });

  it("throws the exchange's own message and code on every recorded error envelope", () => {
    const errors = fixtureIndex(exchange).filter((e) => e.kind === 'rest-error');
    expect(errors.length).toBeGreaterThan(0);
    for (const entry of errors) {
      const body = fixture(exchange, entry.file);
      const err = caught(() => c.parse(body));
      expect(err, entry.file).toBeInstanceOf(WireFormatError);
      expect(err, entry.file).toMatchObject({ exchange, reason: 'exchange', ...c.expected(body as never) });
    }
  });

  it('refuses a body that is neither candles nor its error envelope', () => {
    expect(caught(() => c.parse({ unexpected: true }))).toMatchObject({ name: 'WireFormatError', exchange, reason: 'malformed' });
  });
});

describe('quirks', () => {
  it('binance: ms open times to seconds, base volume (column 5), wire order kept; a bad value refuses or, asked, skips the row', () => {
    const [first] = binanceCandleRows(fixture('binance', 'klines.json'));
    expect(first).toEqual({ time: 1717200000, open: 67512.3, high: 67518.4, low: 67457.4, close: 67483.8, volume: 120.183 });
    const rows = [[1717200000000, 'abc', '1', '1', '1', '1'], [1717200060000, '1', '2', '1', '1', '3']];
    expect(() => binanceCandleRows(rows)).toThrow('Malformed open from binance: "abc"');
    expect(binanceCandleRows(rows, { skipMalformedRows: true }).map((c) => c.time)).toEqual([1717200060]);
  });

  it('bybit: newest first on the wire, oldest first out; volume column 6 (turnover) linear, 5 inverse', () => {
    const body = fixture('bybit', 'kline-linear.json') as { result: { list: string[][] } };
    const newest = body.result.list[0]!;
    const linear = bybitCandleRows(body, 'linear');
    const inverse = bybitCandleRows(body, 'inverse');
    expect(linear.at(-1)).toMatchObject({ time: Number(newest[0]) / 1000, volume: Number(newest[6]) });
    expect(inverse.at(-1)).toMatchObject({ time: Number(newest[0]) / 1000, volume: Number(newest[5]) });
  });

  it('okx: volCcy volume, confirm "0" is the forming bar', () => {
    const body = fixture('okx', 'candles-swap-1H.json') as { data: string[][] };
    const candles = okxCandleRows(body);
    const forming = body.data.find((r) => r[8] === '0')!;
    expect(candles.find((c) => c.closed === false)).toMatchObject({ time: Number(forming[0]) / 1000, volume: Number(forming[6]) });
    expect(candles.filter((c) => c.closed === false)).toHaveLength(1);
  });

  it('bitmex: UDF t is the open and no_data is empty; trade/bucketed stamps the END, moved back one bin', () => {
    expect(bitmexUdfHistory(fixture('bitmex', 'udf-history-60.json')).candles[0]!.time).toBe(1717200000);
    expect(bitmexUdfHistory({ s: 'no_data', nextTime: 1717000000 })).toEqual({ candles: [], nextTime: 1717000000 });
    expect(() => bitmexUdfHistory({ s: 'error', errmsg: 'Unknown symbol' })).toThrow(expect.objectContaining({ reason: 'exchange', message: 'Unknown symbol' }));
    const rows = fixture('bitmex', 'trade-bucketed-1h.json') as Array<{ timestamp: string }>;
    expect(bitmexBinRows(rows, 3600)[0]!.time).toBe(Date.parse(rows[0]!.timestamp) / 1000 - 3600);
  });
});
