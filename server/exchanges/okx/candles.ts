import { WireFormatError } from '../../../src/api/contracts/wire/common';
import { okxCandleRows } from '../../../src/api/contracts/wire/okx';
import { UpstreamFormatError, type Candles } from '../market';

/**
 * `GET /api/v5/market/candles` (okx.md §4): rows `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`, newest
 * first, the forming one included (`confirm` "0": `closed: false`). At most 300 rows a request. Read by the parser
 * the SPA shares (`src/api/contracts/wire/okx.ts`: oldest first, one bar per ts); rows it cannot read are left out.
 */
export const okxCandles: Candles = {
  maxBars: 300,
  liveGapMs: 100,
  path: (inst, { interval, closed }) => `/api/v5/market/candles?instId=${encodeURIComponent(inst.exchangeSymbol)}&bar=${interval === '1m' ? '1m' : '1H'}&limit=${closed + 1}`,
  parse(body) {
    try {
      return okxCandleRows(body, { skipMalformedRows: true }).map((c) => ({ time: Math.round(c.time * 1000), high: c.high, low: c.low, close: c.close, closed: c.closed !== false }));
    } catch (err) {
      if (!(err instanceof WireFormatError)) throw err;
      throw new UpstreamFormatError(err.reason === 'exchange' ? `okx candles: ${err.message} (code ${String(err.code)})` : `okx candles: unexpected response (${err.message})`);
    }
  },
};
