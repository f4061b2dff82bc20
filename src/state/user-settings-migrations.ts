import { CANDLE_INTERVALS } from '../api/contracts/market';
import {
  DEFAULT_FAVORITE_INTERVALS,
  EXCHANGE_PAIR_DEFAULTS,
  USER_SETTINGS_VERSION,
  favoriteIntervalsFrom,
  sanitizeUserSettings,
  type UserSettings,
} from './user-settings-model';

type Draft = Record<string, unknown>;

/** Sets `key` only when the stored state lacks it: migrations never overwrite a user's choice. */
function fill(draft: Draft, defaults: Draft): Draft {
  const next = { ...draft };
  for (const [key, value] of Object.entries(defaults)) if (next[key] === undefined) next[key] = value;
  return next;
}

/**
 * `MIGRATIONS[v]` turns a version-v state into version v+1 (SPEC §4 names each step by the version
 * it starts from). Each step only adds or converts what its version lacked; the final sanitise pass
 * repairs anything else, so the steps can stay as small as the history they describe.
 */
const MIGRATIONS: Record<number, (draft: Draft) => Draft> = {
  /** v1 kept the chart's interval buttons as a list (`tradeIntervals: ['1m', '1h']`); v2 keeps a map. */
  1: (draft) => {
    const { tradeIntervals, ...rest } = draft;
    const list = Array.isArray(tradeIntervals) ? tradeIntervals.filter((i): i is string => typeof i === 'string') : DEFAULT_FAVORITE_INTERVALS;
    const known = list.filter((i) => (CANDLE_INTERVALS as readonly string[]).includes(i));
    return { ...rest, favoriteIntervals: favoriteIntervalsFrom(known) };
  },
  /**
   * v2 was BitMEX-era single-exchange state. It gains testnet, exchange, precision, leverage mode,
   * assets, quantities, avg-in type, category and contract value. When the exchange itself has to be
   * invented, the stored pair cannot be trusted to exist there, so the pair, base asset and category
   * are reset the way switching exchange resets them (SPEC §4) instead of keeping e.g. XBTUSD on binance.
   */
  2: (draft) => {
    const exchangeKnown = typeof draft.exchangeName === 'string';
    const exchangeName = exchangeKnown ? draft.exchangeName : 'binance';
    const pairDefaults = EXCHANGE_PAIR_DEFAULTS[exchangeName as keyof typeof EXCHANGE_PAIR_DEFAULTS] ?? EXCHANGE_PAIR_DEFAULTS.binance;
    const base = exchangeKnown ? draft : { ...draft, ...pairDefaults, exchangeName };
    return fill(base, {
      useTestnet: false,
      exchangeName: 'binance',
      precision: 2,
      quantityPrecision: 2,
      stepSize: 0.001,
      minQty: 0,
      maxQty: 0,
      leverageMode: 'ISOLATED',
      baseAsset: pairDefaults.baseAsset,
      quoteAsset: 'USDT',
      settleCurrency: null,
      avgInOrderType: 1,
      category: pairDefaults.category,
      contractValue: 0,
    });
  },
  3: (draft) => fill(draft, { orderType: 'bracket-order' }),
  4: (draft) => fill(draft, { allowPositionClose: false }),
  5: (draft) => fill(draft, { alertSound: 'alert-1' }),
};

/**
 * Brings a stored user-settings state of `version` (1…6) to the current version and repairs it.
 * Throws for versions this code does not know (0, or newer than 6); the persistence layer then
 * starts from defaults.
 */
export function migrateUserSettings(state: object, version: number): UserSettings {
  if (!Number.isInteger(version) || version < 1 || version > USER_SETTINGS_VERSION) {
    throw new Error(`Unknown user settings version ${version}`);
  }
  let draft: Draft = { ...(state as Draft) };
  for (let v = version; v < USER_SETTINGS_VERSION; v++) draft = MIGRATIONS[v](draft);
  return sanitizeUserSettings(draft);
}
