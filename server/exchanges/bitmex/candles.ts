import { bitmexBinRows } from '../../../src/api/contracts/wire/bitmex';
import { WireFormatError } from '../../../src/api/contracts/wire/common';
import { BAR_MS, UpstreamFormatError, type Candles } from '../market';

/**
 * `GET /api/v1/trade/bucketed` (bitmex.md §4), newest first (`reverse=true`): closed bins only unless
 * `partial=true` asks for the forming one. `timestamp` is the bucket END (trap 2): the bar's open is one bin earlier.
 * Read by the parser the SPA shares for its `tradeBin*` stream (`src/api/contracts/wire/bitmex.ts`); records it
 * cannot read are left out.
 */
export const bitmexCandles: Candles = {
  maxBars: 1000,
  liveGapMs: 2100,
  path: (inst, { interval, closed, forming }) =>
    `/api/v1/trade/bucketed?binSize=${interval}&symbol=${encodeURIComponent(inst.exchangeSymbol)}&count=${closed + (forming ? 1 : 0)}&reverse=true${forming ? '&partial=true' : ''}`,
  parse(body, interval) {
    try {
      return bitmexBinRows(body, BAR_MS[interval] / 1000, { skipMalformedRows: true }).map((c) => ({ time: Math.round(c.time * 1000), high: c.high, low: c.low, close: c.close }));
    } catch (err) {
      if (!(err instanceof WireFormatError)) throw err;
      throw new UpstreamFormatError(err.reason === 'exchange' ? `bitmex trade/bucketed: ${err.message}` : `bitmex trade/bucketed: unexpected response (${err.message})`);
    }
  },
};
