import { z } from 'zod';
import { BAR_MS, candleBar, oldestFirst, parse, rawList, UpstreamFormatError, type Candles } from '../market';

const errorEnvelope = z.object({ error: z.looseObject({ message: z.string() }) });

/**
 * `GET /api/v1/trade/bucketed` (bitmex.md §4), newest first (`reverse=true`): closed bins only unless
 * `partial=true` asks for the forming one. `timestamp` is the bucket END (trap 2): the bar's open is one bin earlier.
 */
export const bitmexCandles: Candles = {
  maxBars: 1000,
  path: (inst, { interval, closed, forming }) =>
    `/api/v1/trade/bucketed?binSize=${interval}&symbol=${encodeURIComponent(inst.exchangeSymbol)}&count=${closed + (forming ? 1 : 0)}&reverse=true${forming ? '&partial=true' : ''}`,
  parse(body, interval) {
    const err = errorEnvelope.safeParse(body);
    if (err.success) throw new UpstreamFormatError(`bitmex trade/bucketed: ${err.data.error.message}`);
    return oldestFirst(
      parse(rawList, body, 'bitmex trade/bucketed').flatMap((r) => (typeof r.timestamp === 'string' ? candleBar(Date.parse(r.timestamp) - BAR_MS[interval], r.high, r.low, r.close) : [])),
    );
  },
};
