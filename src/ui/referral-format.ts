import type { Currency } from '../api/contracts/common';
import { parseMonth } from '../api/contracts/referrals';

/**
 * Number and date formats of the referral screens (SPEC §2 referrer user page): volume prefixed with
 * `$` in USD, else with the currency; incomes en-US with thousands separators and `$`; months as
 * 2-digit month / 2-digit year, en-GB; the recommended percentage with 2 decimals.
 */

const signed = (value: number, body: (abs: number) => string) => `${value < 0 ? '-' : ''}${body(Math.abs(value))}`;

export function formatVolume(value: number, currency: Currency): string {
  if (currency === 'USD') return signed(value, (abs) => `$${abs.toLocaleString('en-US', { maximumFractionDigits: 2 })}`);
  // XBT volumes are small numbers: keep satoshi precision.
  return signed(value, (abs) => `${currency} ${abs.toLocaleString('en-US', { maximumFractionDigits: 8 })}`);
}

export function formatIncome(value: number): string {
  return signed(value, (abs) => `$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
}

/** `2026-05-01T00:00:00.000Z` → `05/26` (en-GB, in UTC so no time zone moves it to April). */
export function formatMonth(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { month: '2-digit', year: '2-digit', timeZone: 'UTC' });
}

/**
 * Recommended referrer income percentage: referrer volume ÷ exchange volume × 100, 2 decimals.
 * Null when the exchange volume is not known (0): there is nothing to take a share of.
 */
export function recommendedPercentage(referrerVolume: number, exchangeVolume: number): string | null {
  if (!(exchangeVolume > 0) || !Number.isFinite(referrerVolume)) return null;
  return ((referrerVolume / exchangeVolume) * 100).toFixed(2);
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
export function formatUsd(value: number): string {
  return signed(value, (abs) => `$${abs.toLocaleString('en-US', { maximumFractionDigits: 2 })}`);
}
