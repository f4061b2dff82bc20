import { proxy } from 'valtio/vanilla';
import type { ExchangeId, MarketCategory } from '../api/contracts/common';
import { CANDLE_INTERVALS, type CandleInterval } from '../api/contracts/market';
import { createPersistence } from './persistence';
import { migrateUserSettings } from './user-settings-migrations';
import {
  EXCHANGE_PAIR_DEFAULTS,
  USER_SETTINGS_NAME,
  USER_SETTINGS_VERSION,
  defaultUserSettings,
  type AlertSound,
  type UserSettings,
} from './user-settings-model';

export * from './user-settings-model';
export { migrateUserSettings } from './user-settings-migrations';

/**
 * Device-local user settings (SPEC §3). Read in components with `useSnapshot(userSettings)`; change
 * through the actions below so the rules of SPEC §4 (exchange switch resets) always apply.
 */
export const userSettings = proxy<UserSettings>(defaultUserSettings());

const persistence = createPersistence({
  baseName: USER_SETTINGS_NAME,
  version: USER_SETTINGS_VERSION,
  target: userSettings,
  restore: migrateUserSettings,
  defaults: defaultUserSettings,
});

/**
 * Loads the settings stored for `userId` (or the generic `user_settings` when signed out) and saves
 * later changes there. The app calls it whenever the signed-in user changes; the latest call wins.
 */
export function bindUserSettingsToUser(userId: string | null): Promise<void> {
  return persistence.bind(userId);
}

/** Writes a pending (debounced) change now. */
export function flushUserSettings(): void {
  persistence.flush();
}

/** The storage name the settings are bound to (null before the first bind). */
export function userSettingsStorageName(): string | null {
  return persistence.boundName();
}

/** Applies a change another tab made to the same storage name (used by the `storage` listener). */
export function receiveExternalUserSettings(name: string, raw: string | null): void {
  persistence.receiveExternal(name, raw);
}

/**
 * Switches exchange and resets trading pair, base asset and category to that exchange's defaults
 * (SPEC §4). Choosing the exchange already selected keeps the current pair.
 */
export function setExchange(exchange: ExchangeId): void {
  if (userSettings.exchangeName === exchange) return;
  const defaults = EXCHANGE_PAIR_DEFAULTS[exchange];
  userSettings.exchangeName = exchange;
  userSettings.tradingPair = defaults.tradingPair;
  userSettings.baseAsset = defaults.baseAsset;
  userSettings.category = defaults.category;
}

/** Instrument facts of a pair as the market adapters report them (all but the symbol optional). */
export interface TradingPairInstrument {
  tickSize?: number;
  /** Price decimals; derived from `tickSize` when absent. */
  precision?: number;
  stepSize?: number;
  /** Quantity decimals; derived from `stepSize` when absent. */
  quantityPrecision?: number;
  minQty?: number;
  maxQty?: number;
  contractValue?: number;
  category?: MarketCategory | null;
  baseAsset?: string;
  quoteAsset?: string;
  settleCurrency?: string | null;
}

/** Decimal places of a step such as 0.1, 0.25, 1e-8 (floating-point noise ignored). */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  const [mantissa, exponent] = step.toExponential().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.min(18, Math.max(0, fraction - Number(exponent)));
}

const positive = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
const nonNegative = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/**
 * Selects a trading pair on the current exchange. With the pair's instrument info, also takes its
 * tick size, precisions, quantity limits, contract value, category and assets, so order entry and
 * the price axis round the way the exchange does. Invalid instrument numbers are ignored.
 */
export function setTradingPair(symbol: string, instrument?: TradingPairInstrument): void {
  userSettings.tradingPair = symbol;
  if (!instrument) return;
  const { tickSize, stepSize } = instrument;
  if (positive(tickSize)) {
    userSettings.tickSize = tickSize;
    userSettings.precision = nonNegative(instrument.precision) ? instrument.precision : decimalsOf(tickSize);
  } else if (nonNegative(instrument.precision)) {
    userSettings.precision = instrument.precision;
  }
  if (positive(stepSize)) {
    userSettings.stepSize = stepSize;
    userSettings.quantityPrecision = nonNegative(instrument.quantityPrecision) ? instrument.quantityPrecision : decimalsOf(stepSize);
  } else if (nonNegative(instrument.quantityPrecision)) {
    userSettings.quantityPrecision = instrument.quantityPrecision;
  }
  if (nonNegative(instrument.minQty)) userSettings.minQty = instrument.minQty;
  if (nonNegative(instrument.maxQty)) userSettings.maxQty = instrument.maxQty;
  if (nonNegative(instrument.contractValue)) userSettings.contractValue = instrument.contractValue;
  if (instrument.category !== undefined) userSettings.category = instrument.category;
  if (instrument.baseAsset) userSettings.baseAsset = instrument.baseAsset;
  if (instrument.quoteAsset) userSettings.quoteAsset = instrument.quoteAsset;
  if (instrument.settleCurrency !== undefined) userSettings.settleCurrency = instrument.settleCurrency;
}

/**
 * Sets the chart interval. (Not named `setInterval`: importing that name would shadow the global
 * timer in every module that uses it.)
 */
export function setChartInterval(interval: CandleInterval): void {
  userSettings.interval = interval;
}

/** Adds or removes one interval from the favourites (SPEC §4). */
export function toggleFavoriteInterval(interval: CandleInterval): void {
  userSettings.favoriteIntervals[interval] = !userSettings.favoriteIntervals[interval];
}

export function setUseTestnet(useTestnet: boolean): void {
  userSettings.useTestnet = useTestnet;
}

export function setTradeMode(tradeMode: boolean): void {
  userSettings.tradeMode = tradeMode;
}

/** Selects the API key the trade panels use (null = none). */
export function setApiKeyId(apiKeyId: string | null): void {
  userSettings.apiKeyId = apiKeyId;
}

/** "Remember password on this device" for one API key; `null` forgets it. */
export function rememberApiKeyPassword(apiKeyId: string, password: string | null): void {
  if (password === null) delete userSettings.apiKeyPasswords[apiKeyId];
  else userSettings.apiKeyPasswords[apiKeyId] = password;
}

export function setAlertSound(sound: AlertSound): void {
  userSettings.alertSound = sound;
}

/** Fields a settings form may set directly (no cross-field rules attached). */
export type PlainUserSettings = Omit<
  UserSettings,
  'exchangeName' | 'tradingPair' | 'baseAsset' | 'category' | 'favoriteIntervals' | 'apiKeyPasswords'
>;

/** Sets plain fields (confirm flags, balance display, risk, order type...). */
export function updateUserSettings(patch: Partial<PlainUserSettings>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (userSettings as Record<string, unknown>)[key] = value;
  }
}

/** Favourite intervals in the canonical order of SPEC §9 (for the interval bar). */
export function favoriteIntervalList(favorites: Readonly<Record<CandleInterval, boolean>>): CandleInterval[] {
  return CANDLE_INTERVALS.filter((i) => favorites[i]);
}
