import { z } from 'zod';
import { exchangeIdSchema, marketCategorySchema, type ExchangeId, type MarketCategory } from '../api/contracts/common';
import { CANDLE_INTERVALS, candleIntervalSchema, type CandleInterval } from '../api/contracts/market';

/** Storage name and version of the user settings (SPEC §3, §9). */
export const USER_SETTINGS_NAME = 'user_settings';
export const USER_SETTINGS_VERSION = 6;

export const ALERT_SOUNDS = ['alert-1', 'alert-2', 'alert-3', 'alert-4'] as const;
export type AlertSound = (typeof ALERT_SOUNDS)[number];

/** Margin modes (SPEC §3); exchanges name cross margin CROSS or CROSSED. */
export const LEVERAGE_MODES = ['CROSS', 'ISOLATED', 'CROSSED'] as const;
export type LeverageMode = (typeof LEVERAGE_MODES)[number];

export const BALANCE_TYPES = ['total', 'available'] as const;
export type BalanceType = (typeof BALANCE_TYPES)[number];

/** Order-entry types of the order panel (DESIGN §3); `ladder-order` is shown only with FF_LADDER_ORDERS. */
export const ORDER_ENTRY_TYPES = ['bracket-order', 'market', 'limit', 'stop-market', 'stop-limit', 'take-profit', 'ladder-order'] as const;
export type OrderEntryType = (typeof ORDER_ENTRY_TYPES)[number];

/** SPEC §9: 1m, 3m, 5m, 15m, 30m start as favourites. */
export const DEFAULT_FAVORITE_INTERVALS: readonly CandleInterval[] = ['1m', '3m', '5m', '15m', '30m'];

/** Interval → favourite flag, always with all 15 intervals present. */
export type FavoriteIntervals = Record<CandleInterval, boolean>;

export function favoriteIntervalsFrom(favourites: Iterable<string>): FavoriteIntervals {
  const set = new Set(favourites);
  return Object.fromEntries(CANDLE_INTERVALS.map((i) => [i, set.has(i)])) as FavoriteIntervals;
}

/** A stored map with missing or non-boolean entries reads those intervals as not favourite. */
function normalizeFavoriteIntervals(value: unknown): FavoriteIntervals {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return favoriteIntervalsFrom(DEFAULT_FAVORITE_INTERVALS);
  const record = value as Record<string, unknown>;
  return favoriteIntervalsFrom(CANDLE_INTERVALS.filter((i) => record[i] === true));
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * The current (v6) user settings. Every field repairs itself to its default when the stored value is
 * missing or invalid, so one bad field never costs the user the rest of their settings.
 */
export const userSettingsSchema = z.object({
  /** The API key the trade panels use (an id from `/v1/api-keys`), none until the user picks one. */
  apiKeyId: z.string().nullable().catch(null),
  /**
   * "Remember password on this device" (DESIGN §3): key password per API key id, sent as
   * `X-Key-Password`. Only keys the user chose to remember are here; forget = delete the entry.
   */
  apiKeyPasswords: z.unknown().optional().transform(stringRecord),
  useTestnet: z.boolean().catch(false),
  exchangeName: exchangeIdSchema.catch('binance'),
  tradeMode: z.boolean().catch(false),
  favoriteIntervals: z.unknown().optional().transform(normalizeFavoriteIntervals),
  tradingPair: z.string().min(1).catch('BTCUSDT'),
  /** Price decimals of the trading pair. */
  precision: z.number().int().min(0).max(18).catch(2),
  tickSize: z.number().positive().catch(0.1),
  quantityPrecision: z.number().int().min(0).max(18).catch(2),
  stepSize: z.number().positive().catch(0.001),
  leverageMode: z.enum(LEVERAGE_MODES).catch('ISOLATED'),
  baseAsset: z.string().min(1).catch('BTC'),
  quoteAsset: z.string().min(1).catch('USDT'),
  settleCurrency: z.string().min(1).nullable().catch(null),
  interval: candleIntervalSchema.catch('5m'),
  confirmCancelOrder: z.boolean().catch(true),
  confirmCancelOrderChartLine: z.boolean().catch(true),
  confirmClosePosition: z.boolean().catch(true),
  confirmClosePositionChartLine: z.boolean().catch(true),
  balanceType: z.enum(BALANCE_TYPES).catch('total'),
  balanceCurrency: z.string().min(1).catch('USDT'),
  minQty: z.number().min(0).catch(0),
  maxQty: z.number().min(0).catch(0),
  /** Percent of the balance risked per trade (DESIGN §3 size-from-risk). */
  maxRisk: z.number().positive().max(100).catch(1.5),
  maskBalance: z.boolean().catch(false),
  hideOtherSymbolsOrders: z.boolean().catch(false),
  hideOtherSymbolsPositions: z.boolean().catch(false),
  avgInOrderType: z.number().int().catch(1),
  category: marketCategorySchema.nullable().catch(null),
  /** Contract size of inverse contracts (0 = not applicable). */
  contractValue: z.number().min(0).catch(0),
  orderType: z.enum(ORDER_ENTRY_TYPES).catch('bracket-order'),
  allowPositionClose: z.boolean().catch(false),
  alertSound: z.enum(ALERT_SOUNDS).catch('alert-1'),
});

export type UserSettings = z.infer<typeof userSettingsSchema>;

/** Fresh defaults, exactly SPEC §3. A new object each call: proxies must not share nested objects. */
export function defaultUserSettings(): UserSettings {
  return userSettingsSchema.parse({});
}

/** Any object → a complete, valid v6 settings object (unknown keys dropped). */
export function sanitizeUserSettings(state: object): UserSettings {
  return userSettingsSchema.parse(state);
}

/** What switching exchange resets (SPEC §4). */
export interface ExchangePairDefaults {
  tradingPair: string;
  baseAsset: string;
  category: MarketCategory | null;
}

export const EXCHANGE_PAIR_DEFAULTS: Readonly<Record<ExchangeId, ExchangePairDefaults>> = {
  bitmex: { tradingPair: 'XBTUSD', baseAsset: 'XBT', category: null },
  binance: { tradingPair: 'BTCUSDT', baseAsset: 'BTC', category: null },
  bybit: { tradingPair: 'BTCUSDT', baseAsset: 'BTC', category: 'linear' },
  okx: { tradingPair: 'BTCUSDT', baseAsset: 'BTC', category: 'linear' },
};
