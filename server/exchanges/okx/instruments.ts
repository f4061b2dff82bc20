import { z } from 'zod';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { allExact, decimals, exact, limitsOf, parse, positiveNumber, UpstreamFormatError, type Instruments } from '../market';

// GET /api/v5/public/instruments?instType=SWAP (okx.md §3)

const okxSchema = z.object({
  code: z.string(),
  msg: z.string(),
  data: z.array(z.unknown()),
});

const okxItemSchema = z.object({
  instId: z.string(),
  instType: z.string(),
  state: z.string(),
  ctType: z.string(),
  ctVal: z.union([z.string(), z.number()]),
  settleCcy: z.string(),
  tickSz: z.string(),
  lotSz: z.string(),
  minSz: z.string(),
  maxLmtSz: z.string(),
  lever: z.string().optional(),
  instFamily: z.string().optional(),
  uly: z.string().optional(),
});

/** OKX instId → the product's symbol: `BTC-USDT-SWAP` → `BTCUSDT` (see the contract's TSDoc). */
export const okxSymbol = (instId: string): string => instId.replace(/-SWAP$/, '').replace(/-/g, '');

export function parseOkxInstruments(body: unknown): Instrument[] {
  const res = parse(okxSchema, body, 'okx public/instruments');
  if (res.code !== '0') throw new UpstreamFormatError(`okx public/instruments: ${res.msg} (code ${res.code})`);
  return res.data.flatMap((raw) => {
    const r = okxItemSchema.safeParse(raw);
    if (!r.success) return [];
    const i = r.data;
    if (i.instType !== 'SWAP' || i.state !== 'live' || (i.ctType !== 'linear' && i.ctType !== 'inverse')) return [];
    const [base, quote] = (i.instFamily || i.uly || i.instId).split('-');
    if (!base || !quote) return [];
    const amounts = allExact({ tickSize: exact(i.tickSz), stepSize: exact(i.lotSz), minQty: exact(i.minSz, { allowZero: true }), maxQty: exact(i.maxLmtSz, { allowZero: true }), contractValue: exact(i.ctVal) });
    if (!amounts) return [];
    return [
      {
        symbol: okxSymbol(i.instId),
        exchangeSymbol: i.instId,
        base,
        quote,
        settle: i.settleCcy,
        category: i.ctType,
        ...amounts,
        precision: decimals(i.tickSz),
        quantityPrecision: decimals(i.lotSz),
        ...limitsOf({ maxLeverage: positiveNumber(i.lever) }),
      },
    ];
  });
}

/** One `GET /api/v5/public/instruments?instType=SWAP`. */
export const okxInstruments: Instruments = {
  load: async (get) => parseOkxInstruments(await get('/api/v5/public/instruments?instType=SWAP')),
  parse: parseOkxInstruments,
};
