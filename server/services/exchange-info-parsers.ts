import { z } from 'zod';
import { abs, dec, div, scaleOf, str } from '../../src/api/contracts/decimal';
import type { Instrument } from '../../src/api/contracts/exchanges';

/**
 * The four exchanges' instrument lists (their own wire formats, exchanges/*.md §3) → the product's
 * `Instrument`. Only live perpetuals are kept: the product trades perpetual swaps. Each parser
 * throws `UpstreamFormatError` when the body is not what the exchange documents, so a changed API
 * surfaces as "exchange unavailable" instead of as empty lists.
 */

export class UpstreamFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamFormatError';
  }
}

/**
 * An amount the exchange states (a tick, a lot, a contract value) as exact decimal text: its own
 * digits, trailing zeros dropped ("0.10" → "0.1"); a JSON number through its shortest text (BitMEX
 * writes floats: 1e-7 → "0.0000001"). Null when it is no number, or not positive when it must be.
 */
function exact(v: string | number, opts: { allowZero?: boolean } = {}): string | null {
  try {
    const d = dec(v);
    return d.units < 0n || (!opts.allowZero && d.units === 0n) ? null : str(d);
  } catch {
    return null;
  }
}

/** Every one of an instrument's amounts is exact text, or the instrument is left out (not guessed). */
function allExact<T extends Record<string, string | null>>(amounts: T): { [K in keyof T]: string } | null {
  return Object.values(amounts).every((v) => v !== null) ? (amounts as { [K in keyof T]: string }) : null;
}

const num = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `not a number: ${String(v)}` });
    return z.NEVER;
  }
  return n;
});

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new UpstreamFormatError(`${what}: unexpected response (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`);
  return r.data;
}

/** A number's decimal count as the exchange wrote it ("0.10" → 1 after trimming; 0.5 → 1; 1e-7 → 7). */
const decimals = (v: string | number): number => scaleOf(str(dec(v)));

// ---------------------------------------------------------------- binance (GET /fapi/v1/exchangeInfo)

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

/** A stated price bound, or nothing when the exchange writes 0 (no bound). */
const bound = (v: string | number | null | undefined): string | undefined => {
  if (v === undefined || v === null) return undefined;
  const text = String(v);
  return Number(text) > 0 ? text : undefined;
};

type Limits = NonNullable<Instrument['limits']>;

/** A positive number the exchange wrote as text, or nothing. */
const positiveNumber = (v: string | undefined): number | undefined => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};
/** Drops absent entries so an instrument that states nothing has no `limits` at all. */
function limitsOf(l: Limits): { limits?: Limits } {
  const kept = Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)) as Limits;
  return Object.keys(kept).length ? { limits: kept } : {};
}
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

// ------------------------------------------------------ bybit (GET /v5/market/instruments-info pages)

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
  priceScale: num,
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

// ------------------------------------------------------------ bitmex (GET /api/v1/instrument/active)

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

// ------------------------------------------------- okx (GET /api/v5/public/instruments?instType=SWAP)

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
