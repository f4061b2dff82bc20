import { z } from 'zod';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { allExact, bound, exact, limitsOf, parse, type Instruments } from '../market';

// GET /fapi/v1/exchangeInfo (binance.md §3)

const binanceSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      status: z.string(),
      contractType: z.string(),
      baseAsset: z.string(),
      quoteAsset: z.string(),
      marginAsset: z.string(),
      pricePrecision: z.number().int(),
      quantityPrecision: z.number().int(),
      filters: z.array(z.looseObject({ filterType: z.string() })),
    }),
  ),
});

const binanceFilter = z.object({ tickSize: z.string(), minPrice: z.string().optional(), maxPrice: z.string().optional() });
const binanceLimit = z.object({ limit: z.number().int().positive() });
const binanceNotional = z.object({ notional: z.string() });
const binanceBand = z.object({ multiplierUp: z.string(), multiplierDown: z.string() });

const binanceLot = z.object({ stepSize: z.string(), minQty: z.string(), maxQty: z.string() });

export function parseBinanceInstruments(body: unknown): Instrument[] {
  const { symbols } = parse(binanceSchema, body, 'binance exchangeInfo');
  return symbols
    .filter((s) => s.status === 'TRADING' && s.contractType === 'PERPETUAL')
    .flatMap((s) => {
      const price = binanceFilter.safeParse(s.filters.find((f) => f.filterType === 'PRICE_FILTER'));
      const lot = binanceLot.safeParse(s.filters.find((f) => f.filterType === 'LOT_SIZE'));
      if (!price.success || !lot.success) return [];
      const filter = <T>(schema: z.ZodType<T>, type: string): T | undefined => {
        const r = schema.safeParse(s.filters.find((f) => f.filterType === type));
        return r.success ? r.data : undefined;
      };
      const band = filter(binanceBand, 'PERCENT_PRICE');
      const amounts = allExact({ tickSize: exact(price.data.tickSize), stepSize: exact(lot.data.stepSize), minQty: exact(lot.data.minQty, { allowZero: true }), maxQty: exact(lot.data.maxQty, { allowZero: true }) });
      if (!amounts) return [];
      return [
        {
          symbol: s.symbol,
          exchangeSymbol: s.symbol,
          base: s.baseAsset,
          quote: s.quoteAsset,
          settle: s.marginAsset,
          category: 'linear' as const,
          ...amounts,
          contractValue: '1',
          precision: s.pricePrecision,
          quantityPrecision: s.quantityPrecision,
          ...limitsOf({
            minPrice: bound(price.data.minPrice),
            maxPrice: bound(price.data.maxPrice),
            minNotional: bound(filter(binanceNotional, 'MIN_NOTIONAL')?.notional),
            priceBand: band ? { up: band.multiplierUp, down: band.multiplierDown } : undefined,
            maxOrders: filter(binanceLimit, 'MAX_NUM_ORDERS')?.limit,
            maxConditionalOrders: filter(binanceLimit, 'MAX_NUM_ALGO_ORDERS')?.limit,
          }),
        },
      ];
    });
}


/** One `GET /fapi/v1/exchangeInfo`. */
export const binanceInstruments: Instruments = {
  load: async (get) => parseBinanceInstruments(await get('/fapi/v1/exchangeInfo')),
  parse: parseBinanceInstruments,
};
