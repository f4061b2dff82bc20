import { CURRENCIES, NETWORKS, type Currency, type Network } from '../../api/contracts/common';
import { REFERRAL_DEFAULTS, REFERRAL_EXCHANGES, currencyOffered, type ReferralExchange } from '../../api/contracts/referrals';

/** The referrer user page's filters (SPEC §2), kept in the query string. */
export interface ReferralFilters {
  exchange: ReferralExchange;
  userId: string;
  network: Network;
  currency: Currency;
}

const pick = <T extends string>(allowed: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/**
 * Filters from the query string, with SPEC §9's defaults (BITMEX, MAINNET, USD) for missing or
 * unknown values. The user id is the page's (the path's): the query mirrors it.
 */
export function readReferralFilters(params: URLSearchParams, userId: string): ReferralFilters {
  return {
    exchange: pick(REFERRAL_EXCHANGES, params.get('exchange'), REFERRAL_DEFAULTS.exchange),
    userId,
    network: pick(NETWORKS, params.get('network'), REFERRAL_DEFAULTS.network),
    currency: pick(CURRENCIES, params.get('currency'), REFERRAL_DEFAULTS.currency),
  };
}

/** The query string of `filters`, always complete and in the same order. */
export function referralFiltersSearch(filters: ReferralFilters): URLSearchParams {
  return new URLSearchParams([
    ['exchange', filters.exchange],
    ['userId', filters.userId],
    ['network', filters.network],
    ['currency', filters.currency],
  ]);
}

/** The currency the figures are in: USD except for BITMEX, where the filter is shown. */
export const effectiveCurrency = (f: Pick<ReferralFilters, 'exchange' | 'currency'>): Currency => currencyOffered(f.exchange, f.currency);

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const REFERRALS_OVERVIEW_PATH = '/admin-panel/referrals/overview';
export const REFERRER_USER_PATH = '/admin-panel/referrals/user';
