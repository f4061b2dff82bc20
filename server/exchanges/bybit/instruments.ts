import { z } from 'zod';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { allExact, bound, decimals, exact, limitsOf, numberish, parse, positiveNumber, UpstreamFormatError, type Instruments } from '../market';

// GET /v5/market/instruments-info pages (bybit.md §3)

const bybitPageSchema = z.object({
  retCode: z.number(),
  retMsg: z.string(),
  result: z.looseObject({ list: z.array(z.unknown()).optional(), nextPageCursor: z.string().optional() }),
});

const bybitItemSchema = z.object({
  symbol: z.string(),
  contractType: z.string(),
  status: z.string(),
  baseCoin: z.string(),
  quoteCoin: z.string(),
  settleCoin: z.string(),
  priceScale: numberish,
  priceFilter: z.object({ tickSize: z.string(), minPrice: z.string().optional(), maxPrice: z.string().optional() }),
  leverageFilter: z.object({ maxLeverage: z.string() }).optional(),
  lotSizeFilter: z.object({ qtyStep: z.string(), minOrderQty: z.string(), maxOrderQty: z.string(), minNotionalValue: z.string().optional() }),
});

/** One page: its items and the cursor of the next (empty when done). Bybit errors come with HTTP 200 (trap 9). */
export function parseBybitInstrumentsPage(body: unknown): { items: Instrument[]; nextPageCursor: string } {
  const page = parse(bybitPageSchema, body, 'bybit instruments-info');
  if (page.retCode !== 0) throw new UpstreamFormatError(`bybit instruments-info: ${page.retMsg} (retCode ${page.retCode})`);
  const items = (page.result.list ?? []).flatMap((raw) => {
    const r = bybitItemSchema.safeParse(raw);
    if (!r.success) return [];
    const i = r.data;
    const inverse = i.contractType === 'InversePerpetual';
    if (i.status !== 'Trading' || (i.contractType !== 'LinearPerpetual' && !inverse)) return [];
    const amounts = allExact({ tickSize: exact(i.priceFilter.tickSize), stepSize: exact(i.lotSizeFilter.qtyStep), minQty: exact(i.lotSizeFilter.minOrderQty, { allowZero: true }), maxQty: exact(i.lotSizeFilter.maxOrderQty, { allowZero: true }) });
    if (!amounts) return [];
    return [
      {
        symbol: i.symbol,
        exchangeSymbol: i.symbol,
        base: i.baseCoin,
        quote: i.quoteCoin,
        settle: i.settleCoin,
        category: inverse ? ('inverse' as const) : ('linear' as const),
        ...amounts,
        // Linear qty is base coin; inverse qty is USD, one contract = 1 USD (bybit.md §3).
        contractValue: '1',
        precision: i.priceScale,
        quantityPrecision: decimals(i.lotSizeFilter.qtyStep),
        // bybit.md (order/create): at most 10 active conditional orders per symbol; 500 open orders in all.
        ...limitsOf({
          minPrice: bound(i.priceFilter.minPrice),
          maxPrice: bound(i.priceFilter.maxPrice),
          minNotional: inverse ? undefined : bound(i.lotSizeFilter.minNotionalValue),
          maxOrders: 500,
          maxConditionalOrders: 10,
          maxLeverage: positiveNumber(i.leverageFilter?.maxLeverage),
        }),
      },
    ];
  });
  return { items, nextPageCursor: page.result.nextPageCursor ?? '' };
}


/** Bybit lists >500 linear symbols: page with the cursor (trap 19); this caps a runaway loop. */
const BYBIT_MAX_PAGES = 50;

/** Linear and inverse perpetuals, each category paged with `nextPageCursor` until it is empty. */
export const bybitInstruments: Instruments = {
  async load(get) {
    const out: Instrument[] = [];
    for (const category of ['linear', 'inverse'] as const) {
      let cursor = '';
      for (let page = 0; page < BYBIT_MAX_PAGES; page++) {
        const query = `category=${category}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const { items, nextPageCursor } = parseBybitInstrumentsPage(await get(`/v5/market/instruments-info?${query}`));
        out.push(...items);
        if (!nextPageCursor) break;
        cursor = nextPageCursor;
      }
    }
    return out;
  },
  parse: (body) => parseBybitInstrumentsPage(body).items,
};
