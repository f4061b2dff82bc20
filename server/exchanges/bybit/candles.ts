import { z } from 'zod';
import { candleBar, candleRows, oldestFirst, parse, UpstreamFormatError, type Candles } from '../market';

const page = z.object({ retCode: z.number(), retMsg: z.string(), result: z.looseObject({ list: candleRows.optional() }) });

/** `GET /v5/market/kline` (bybit.md §4): `result.list` rows `[start, o, h, l, c, volume, turnover]`, newest first, the forming one included. */
export const bybitCandles: Candles = {
  maxBars: 1000,
  path: (inst, { interval, closed }) =>
    `/v5/market/kline?category=${inst.category}&symbol=${encodeURIComponent(inst.exchangeSymbol)}&interval=${interval === '1m' ? '1' : '60'}&limit=${closed + 1}`,
  parse(body) {
    const p = parse(page, body, 'bybit kline');
    // Errors come with HTTP 200 (trap 9).
    if (p.retCode !== 0) throw new UpstreamFormatError(`bybit kline: ${p.retMsg} (retCode ${p.retCode})`);
    return oldestFirst((p.result.list ?? []).flatMap((r) => candleBar(r[0], r[2], r[3], r[4])));
  },
};
