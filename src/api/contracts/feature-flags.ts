import { z } from 'zod';
import { EXCHANGE_IDS, type ExchangeId } from './common';

/** All flag keys of SPEC §3. Every key defaults to off except FF_MAINTENANCE_BANNER. */
export const FEATURE_FLAG_KEYS = [
  'FF_LADDER_ORDERS',
  'FF_TRADING_VOLUME_FILTERS',
  'FF_ENABLE_REGISTRATION',
  'FF_ENABLE_BITMEX',
  'FF_ENABLE_BYBIT',
  'FF_ENABLE_OKX',
  'FF_MAINTENANCE_BANNER',
  'FF_ENABLE_SCANNER',
  'FF_ENABLE_DRAWING_TOOL',
  'FF_ENABLE_POSITION_QUICK_LINKS',
  'FF_ENABLE_FORGOT_PASSWORD',
  'FF_ENABLE_SHARE_PROFIT_CARD',
  'FF_ENABLE_EXECUTE_NON_TRIGGERED',
  'FF_ENABLE_ALERTS',
  'FF_ENABLE_FIBONACCI_TOOL',
  'FF_ENABLE_REFERRALS',
  'FF_ENABLE_SEMI_AUTO',
] as const;
export type FeatureFlagKey = (typeof FEATURE_FLAG_KEYS)[number];

export const FEATURE_FLAG_DEFAULTS: Record<FeatureFlagKey, boolean> = Object.fromEntries(
  FEATURE_FLAG_KEYS.map((k) => [k, k === 'FF_MAINTENANCE_BANNER']),
) as Record<FeatureFlagKey, boolean>;

export const featureFlagNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Z][A-Z0-9_]{1,63}$/, 'Use upper-case letters, digits and underscores, e.g. FF_MY_FEATURE');

export const featureFlagSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  enabled: z.boolean(),
});
export type FeatureFlag = z.infer<typeof featureFlagSchema>;

export const featureFlagListSchema = z.array(featureFlagSchema);

export const createFeatureFlagBodySchema = z.object({ name: featureFlagNameSchema, enabled: z.boolean() });
export type CreateFeatureFlagBody = z.infer<typeof createFeatureFlagBodySchema>;

/** `PUT /v1/feature-flags/{id}` takes the flag object (SPEC §7). */
export const updateFeatureFlagBodySchema = z.object({
  id: z.uuid().optional(),
  name: featureFlagNameSchema,
  enabled: z.boolean(),
});
export type UpdateFeatureFlagBody = z.infer<typeof updateFeatureFlagBodySchema>;

/** `GET /v1/feature-flags/json`: every known key (with defaults filled in) plus any admin-created flag. */
export const featureFlagMapSchema = z.record(z.string(), z.boolean());
export type FeatureFlagMap = Record<FeatureFlagKey, boolean> & Record<string, boolean>;

/** The flag that must be on for an exchange to be offered; binance is always offered (SPEC §2 top bar). */
export const EXCHANGE_FEATURE_FLAGS: Record<ExchangeId, FeatureFlagKey | null> = {
  binance: null,
  bitmex: 'FF_ENABLE_BITMEX',
  bybit: 'FF_ENABLE_BYBIT',
  okx: 'FF_ENABLE_OKX',
};

/** The exchanges offered under `flags`, in the product's order. */
export function enabledExchangeIds(flags: Partial<Record<string, boolean>> | undefined): ExchangeId[] {
  return EXCHANGE_IDS.filter((id) => {
    const flag = EXCHANGE_FEATURE_FLAGS[id];
    return flag === null || flags?.[flag] === true;
  });
}
