import { bybitCandleRows } from '../../../src/api/contracts/wire/bybit';
import { WireFormatError } from '../../../src/api/contracts/wire/common';
import { oldestFirst, UpstreamFormatError, type Candles } from '../market';

/**
 * `GET /v5/market/kline` (bybit.md §4): `result.list` rows `[start, o, h, l, c, volume, turnover]`, newest first, the
 * forming one included. Read by the parser the SPA shares (`src/api/contracts/wire/bybit.ts`; the server reads no
 * volume); rows it cannot read are left out.
 */
export const bybitCandles: Candles = {
  maxBars: 1000,
  liveGapMs: 100,
  path: (inst, { interval, closed }) =>
    `/v5/market/kline?category=${inst.category}&symbol=${encodeURIComponent(inst.exchangeSymbol)}&interval=${interval === '1m' ? '1' : '60'}&limit=${closed + 1}`,
  parse(body) {
    try {
      return oldestFirst(bybitCandleRows(body, 'linear', { skipMalformedRows: true }).map((c) => ({ time: Math.round(c.time * 1000), high: c.high, low: c.low, close: c.close })));
    } catch (err) {
      if (!(err instanceof WireFormatError)) throw err;
      // Errors come with HTTP 200 (trap 9).
      throw new UpstreamFormatError(err.reason === 'exchange' ? `bybit kline: ${err.message} (retCode ${String(err.code)})` : `bybit kline: unexpected response (${err.message})`);
    }
  },
};
