import { z } from 'zod';
import { exchangeIdSchema, marketCategorySchema } from './common';
import { decimalStringSchema } from './decimal';

/**
 * `GET /v1/exchanges` item (SPEC §3, §7): the exchanges the product trades on, with SPEC's display
 * names (binance, BitMEX, bybit, okx) and whether each is enabled by its feature flag
 * (binance always; bitmex, bybit, okx behind FF_ENABLE_BITMEX / FF_ENABLE_BYBIT / FF_ENABLE_OKX).
 * Public and "never stale": the answer is `cache-control: no-store`.
 */
export const exchangeSummarySchema = z.object({
  id: exchangeIdSchema,
  name: z.string(),
  enabled: z.boolean(),
});
export type ExchangeSummary = z.infer<typeof exchangeSummarySchema>;
export const exchangeListSchema = z.array(exchangeSummarySchema);

/**
 * One tradeable perpetual of an exchange, normalised for the settings store (SPEC §3 user settings:
 * tradingPair, baseAsset, quoteAsset, settleCurrency, category, tickSize, precision, stepSize,
 * quantityPrecision, minQty, maxQty, contractValue).
 *
 * **Symbols.** `symbol` is the product's pair id, `exchangeSymbol` the exchange's own id on the wire:
 * - binance, bybit: the same (`BTCUSDT`; bybit inverse `BTCUSD`);
 * - bitmex: the same (`XBTUSD`, `XBTUSDT`) — BitMEX calls bitcoin XBT, and so does the product
 *   (SPEC §4: switching to bitmex selects XBTUSD / XBT);
 * - okx: `symbol` = base + quote of the SWAP instId without dashes and without `-SWAP`:
 *   `BTC-USDT-SWAP` → `BTCUSDT` (linear), `BTC-USD-SWAP` → `BTCUSD` (inverse). The reverse is
 *   `${base}-${quote}-SWAP`; adapters send `exchangeSymbol` (the instId) on the wire.
 *
 * **Units.** Quantities (`stepSize`, `minQty`, `maxQty`) are in the exchange's order unit: base coin
 * on binance and bybit linear, USD on bybit inverse, contracts on BitMEX and OKX. `contractValue`
 * converts one order unit: for linear instruments it is base coin per unit (1 on binance/bybit,
 * ctVal on okx — 0.01 BTC for BTC-USDT-SWAP, 1e-6 XBT for BitMEX XBTUSDT); for inverse instruments
 * it is USD per contract (1 for XBTUSD and bybit BTCUSD, 100 for okx BTC-USD-SWAP).
 *
 * **Exact.** `tickSize`, `stepSize`, `minQty`, `maxQty` and `contractValue` are decimal text, the
 * exchange's own digits where it prints them (`"0.10"` → `"0.1"`), computed exactly where it does not
 * (BitMEX's multipliers): a float never carries them (issue 22).
 *
 * `precision` is the number of decimals to show prices with (the exchange's price precision, e.g.
 * 2 for binance BTCUSDT whose tick is 0.10); `quantityPrecision` the decimals of quantities.
 * `settle` is the margin/settlement currency code, upper-case (`USDT`, `BTC`, `XBT`).
 */
export const instrumentSchema = z.object({
  symbol: z.string(),
  exchangeSymbol: z.string(),
  base: z.string(),
  quote: z.string(),
  settle: z.string(),
  category: marketCategorySchema,
  tickSize: decimalStringSchema(),
  stepSize: decimalStringSchema(),
  minQty: decimalStringSchema({ allowZero: true }),
  maxQty: decimalStringSchema({ allowZero: true }),
  contractValue: decimalStringSchema(),
  precision: z.number().int().nonnegative(),
  quantityPrecision: z.number().int().nonnegative(),
  /**
   * A quanto contract (BitMEX ETHUSD): priced in the quote (USD), margined and settled in `settle`
   * (XBT), whatever the base. `category` is `linear` (value and PnL are linear in the price) and
   * `contractValue` is the settle coin per contract per 1 quote move (ETHUSD: multiplier 100 satoshi
   * = 0.000001 XBT): PnL = qty × contractValue × (exit − entry) XBT. Absent for every other contract.
   */
  quanto: z.literal(true).optional(),
  /**
   * What else the exchange states about orders, as its own decimal text (absent when it states
   * nothing): the price bounds, the minimum order value (quote currency, linear; reduce-only orders
   * are exempt), the band a limit price must keep from the mark (Binance PERCENT_PRICE: a buy at most
   * mark × `up`, a sell at least mark × `down`), and how many orders may be open per symbol (all, and
   * conditional ones). The trading server checks every leg of a multi-leg order against them before
   * sending anything.
   */
  limits: z
    .object({
      minPrice: z.string().optional(),
      maxPrice: z.string().optional(),
      minNotional: z.string().optional(),
      priceBand: z.object({ up: z.string(), down: z.string() }).optional(),
      maxOrders: z.number().int().positive().optional(),
      maxConditionalOrders: z.number().int().positive().optional(),
      /** The highest leverage the instrument allows (Binance states it only per account: absent). */
      maxLeverage: z.number().positive().optional(),
    })
    .optional(),
});
export type Instrument = z.infer<typeof instrumentSchema>;
export const instrumentListSchema = z.array(instrumentSchema);

export const exchangeInfoParamsSchema = z.object({ id: exchangeIdSchema });

/**
 * `GET /v1/exchange-account/exchange-info/{id}?filter=&testnet=` (signed in). `filter` keeps the
 * instruments whose symbol, exchange symbol or base contains it (case-insensitive); `testnet=true`
 * lists the exchange's testnet/demo instruments. The list keeps the exchange's own order.
 */
export const exchangeInfoQuerySchema = z.object({
  filter: z.string().trim().max(50).optional(),
  testnet: z.stringbool().default(false),
});
export type ExchangeInfoQuery = z.infer<typeof exchangeInfoQuerySchema>;

/**
 * `GET /v1/exchanges/all-trading-pairs` item (signed in): every mainnet pair of every enabled
 * exchange. SPEC §4 removes favourite pairs that are no longer in "the exchange's pair list": prune
 * a favourite only against the pairs of its own exchange, and only when that exchange is in the
 * answer. If an enabled exchange cannot be loaded (and nothing is cached) the call fails with 502
 * naming it, so a transient outage never prunes favourites.
 */
export const tradingPairSchema = z.object({
  exchange: exchangeIdSchema,
  symbol: z.string(),
  exchangeSymbol: z.string(),
  base: z.string(),
  quote: z.string(),
  category: marketCategorySchema,
});
export type TradingPair = z.infer<typeof tradingPairSchema>;
export const tradingPairListSchema = z.array(tradingPairSchema);
