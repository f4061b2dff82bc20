import { z } from 'zod';
import { candleBar, candleRows, oldestFirst, parse, UpstreamFormatError, type Candles } from '../market';

const answer = z.object({ code: z.string(), msg: z.string(), data: candleRows });

/**
 * `GET /api/v5/market/candles` (okx.md §4): rows `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`, newest
 * first, the forming one included (`confirm` "0": `closed: false`). At most 300 rows a request.
 */
export const okxCandles: Candles = {
  maxBars: 300,
  path: (inst, { interval, closed }) => `/api/v5/market/candles?instId=${encodeURIComponent(inst.exchangeSymbol)}&bar=${interval === '1m' ? '1m' : '1H'}&limit=${closed + 1}`,
  parse(body) {
    const r = parse(answer, body, 'okx candles');
    if (r.code !== '0') throw new UpstreamFormatError(`okx candles: ${r.msg} (code ${r.code})`);
    return oldestFirst(r.data.flatMap((row) => candleBar(row[0], row[2], row[3], row[4], row[8] !== '0')));
  },
};
