import { z } from 'zod';
import { abs, dec, div, str } from '../../../src/api/contracts/decimal';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { allExact, bound, decimals, exact, limitsOf, parse, type Instruments } from '../market';

// GET /api/v1/instrument/active (bitmex.md §3)

const bitmexSchema = z.array(
  z.looseObject({
    symbol: z.string(),
    state: z.string(),
    typ: z.string(),
    underlying: z.string(),
    quoteCurrency: z.string(),
    settlCurrency: z.string().nullable(),
    tickSize: z.number(),
    lotSize: z.number().nullable(),
    maxOrderQty: z.number().nullable(),
    multiplier: z.number().nullable(),
    underlyingToPositionMultiplier: z.number().nullable(),
    isInverse: z.boolean(),
    isQuanto: z.boolean(),
    maxPrice: z.number().nullable().optional(),
    initMargin: z.number().nullable().optional(),
  }),
);

/** BitMEX writes satoshi-denominated currencies with a lower-case t (XBt, USDt, trap 6); codes are upper-case here. */
const bitmexCurrency = (c: string) => c.toUpperCase();

export function parseBitmexInstruments(body: unknown): Instrument[] {
  const rows = parse(bitmexSchema, body, 'bitmex instrument/active');
  return rows.flatMap((r) => {
    // FFWCSX = perpetual.
    if (r.state !== 'Open' || r.typ !== 'FFWCSX' || !r.lotSize || !r.settlCurrency || !r.multiplier) return [];
    // Inverse: XBt per contract per 1/price → USD per contract (|multiplier| ÷ 1e8, exact). Quanto (ETHUSD,
    // settled in XBT): satoshi per contract per 1 USD of price → XBT (100 → 0.000001), linear in the price.
    // Linear: base coin per contract, 1 ÷ underlyingToPositionMultiplier (XBTUSDT: 1 ÷ 1e6 = 0.000001).
    const contractValue = r.isInverse || r.isQuanto
      ? exact(str(div(abs(dec(r.multiplier)), dec(100_000_000))))
      : r.underlyingToPositionMultiplier
        ? exact(str(div(dec(1), dec(r.underlyingToPositionMultiplier), 18)))
        : null;
    const amounts = allExact({ tickSize: exact(r.tickSize), stepSize: exact(r.lotSize), minQty: exact(r.lotSize), maxQty: exact(r.maxOrderQty ?? 0, { allowZero: true }), contractValue });
    if (!amounts) return [];
    return [
      {
        symbol: r.symbol,
        exchangeSymbol: r.symbol,
        base: r.underlying,
        quote: r.quoteCurrency,
        settle: bitmexCurrency(r.settlCurrency),
        category: r.isInverse ? ('inverse' as const) : ('linear' as const),
        ...amounts,
        ...(r.isQuanto && !r.isInverse ? { quanto: true as const } : {}),
        precision: decimals(r.tickSize),
        quantityPrecision: decimals(r.lotSize),
        // BitMEX allows 200 open orders per symbol (its API's order limits).
        // The leverage the initial margin allows: 1 ÷ initMargin (0.01 → 100×).
        ...limitsOf({ maxPrice: bound(r.maxPrice), maxOrders: 200, maxLeverage: r.initMargin ? Math.floor(1 / r.initMargin + 1e-9) : undefined }),
      },
    ];
  });
}


/** One `GET /api/v1/instrument/active`. */
export const bitmexInstruments: Instruments = {
  load: async (get) => parseBitmexInstruments(await get('/api/v1/instrument/active')),
  parse: parseBitmexInstruments,
};
