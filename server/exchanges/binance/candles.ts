import { z } from 'zod';
import { candleBar, candleRows, oldestFirst, parse, UpstreamFormatError, type Candles } from '../market';

const errorEnvelope = z.object({ code: z.number(), msg: z.string() });

/** `GET /fapi/v1/klines` (binance.md §4): rows `[openTime, o, h, l, c, …]`, oldest first; the last one is forming. */
export const binanceCandles: Candles = {
  maxBars: 1000,
  path: (inst, { interval, closed }) => `/fapi/v1/klines?symbol=${encodeURIComponent(inst.exchangeSymbol)}&interval=${interval}&limit=${closed + 1}`,
  parse(body) {
    const err = errorEnvelope.safeParse(body);
    if (err.success) throw new UpstreamFormatError(`binance klines: ${err.data.msg} (code ${err.data.code})`);
    return oldestFirst(parse(candleRows, body, 'binance klines').flatMap((r) => candleBar(r[0], r[2], r[3], r[4])));
  },
};
