import type { Currency } from '../api/contracts/common';
import { dec, div, fixed, groupThousands, mul, round, sign, str } from '../api/contracts/decimal';
import { parseMonth } from '../api/contracts/referrals';
import { formatUsdDecimal } from './usd-decimal';

/**
 * Number and date formats of the referral screens (SPEC §2 referrer user page): volume prefixed with
 * `$` in USD, else with the currency; incomes en-US with thousands separators and `$`; months as
 * 2-digit month / 2-digit year, en-GB; the recommended percentage with 2 decimals. Amounts are the
 * API's exact decimal strings and are formatted exactly (issue 22): rounded half-even, as
 * `formatUsdDecimal` rounds, never through a float.
 */

/** At most `scale` decimals (trailing zeros dropped), en-US thousands separators, the sign in front of `prefix`. */
function formatAmount(value: string, scale: number, prefix: string): string {
  const rounded = round(dec(value), scale);
  return `${sign(rounded) < 0 ? '-' : ''}${prefix}${groupThousands(str(rounded).replace('-', ''))}`;
}

export function formatVolume(value: string, currency: Currency): string {
  if (currency === 'USD') return formatAmount(value, 2, '$');
  // XBT volumes are small numbers: keep satoshi precision.
  return formatAmount(value, 8, `${currency} `);
}

/** Dollars and cents ("$1,234.50", "-$42.12"), exactly. */
export function formatIncome(value: string): string {
  const cents = round(dec(value), 2);
  return `${sign(cents) < 0 ? '-' : ''}$${formatUsdDecimal(str(cents))}`;
}

/** `2026-05-01T00:00:00.000Z` → `05/26` (en-GB, in UTC so no time zone moves it to April). */
export function formatMonth(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { month: '2-digit', year: '2-digit', timeZone: 'UTC' });
}

/**
 * Recommended referrer income percentage: referrer volume ÷ exchange volume × 100, 2 decimals, exact.
 * Null when the exchange volume is not known (0): there is nothing to take a share of.
 */
export function recommendedPercentage(referrerVolume: string, exchangeVolume: string): string | null {
  const exchange = dec(exchangeVolume);
  if (sign(exchange) <= 0) return null;
  return fixed(div(mul(dec(referrerVolume), dec(100)), exchange, 2), 2);
}

/** A month string (`YYYY-MM`, `YYYY-MM-DD`, ISO) as the first instant of that month, parsed as UTC (SPEC §5). */
export function parseMonthUtc(value: string): Date | null {
  return parseMonth(value);
}

/** The current month in UTC as `YYYY-MM-01` (the month picker's value format). */
export function currentUtcMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** US dollars with separators and no cents beyond 2 decimals, for tables and totals. */
export function formatUsd(value: string): string {
  return formatAmount(value, 2, '$');
}
