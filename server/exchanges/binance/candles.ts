import { binanceCandleRows } from '../../../src/api/contracts/wire/binance';
import { WireFormatError } from '../../../src/api/contracts/wire/common';
import { oldestFirst, UpstreamFormatError, type Candles } from '../market';

/**
 * `GET /fapi/v1/klines` (binance.md §4): rows `[openTime, o, h, l, c, …]`, oldest first; the last one is forming.
 * The rows are read by the parser the SPA shares (`src/api/contracts/wire/binance.ts`); rows it cannot read are left out.
 */
export const binanceCandles: Candles = {
  maxBars: 1000,
  liveGapMs: 100,
  path: (inst, { interval, closed }) => `/fapi/v1/klines?symbol=${encodeURIComponent(inst.exchangeSymbol)}&interval=${interval}&limit=${closed + 1}`,
  parse(body) {
    try {
      return oldestFirst(binanceCandleRows(body, { skipMalformedRows: true }).map((c) => ({ time: Math.round(c.time * 1000), high: c.high, low: c.low, close: c.close })));
    } catch (err) {
      if (!(err instanceof WireFormatError)) throw err;
      throw new UpstreamFormatError(err.reason === 'exchange' ? `binance klines: ${err.message} (code ${String(err.code)})` : `binance klines: unexpected response (${err.message})`);
    }
  },
};
