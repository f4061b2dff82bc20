/**
 * Cell texts. The formatters are built once (Intl formatters are expensive to create, cheap to
 * use): a repaint formats a few hundred cells.
 */

const prices = [
  new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
  new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 }),
  new Intl.NumberFormat('en-US', { maximumSignificantDigits: 5 }),
];
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const DASH = '–';

/** Prices from 0.00001234 to 67,583.4 with about six significant digits, thousands separated. */
export function formatPrice(v: number | null): string {
  if (v === null) return DASH;
  const a = Math.abs(v);
  return (a >= 10_000 ? prices[0] : a >= 100 ? prices[1] : a >= 1 ? prices[2] : prices[3]).format(v);
}

/** `+1.23%` / `-0.61%`. */
export function formatPercent(v: number | null, digits = 2): string {
  if (v === null) return DASH;
  return `${v > 0 ? '+' : ''}${v.toFixed(digits)}%`;
}

/** Unsigned percent (range, ATR). */
export const formatPlainPercent = (v: number | null): string => (v === null ? DASH : `${v.toFixed(2)}%`);

/** 10.24B, 612.3M, 12.4K (the quote currency's units). */
export const formatCompact = (v: number | null): string => (v === null ? DASH : compact.format(v));

/** A funding rate (fraction per period) as a percent with four decimals: 0.0001 → +0.0100%. */
export const formatFunding = (v: number | null): string => (v === null ? DASH : formatPercent(v * 100, 4));

/** Time to the next funding: `3h 12m`, `45m`, `now`. */
export function formatCountdown(at: number | null, now: number): string {
  if (at === null) return DASH;
  const minutes = Math.max(0, Math.ceil((at - now) / 60_000));
  if (minutes === 0) return 'now';
  const h = Math.floor(minutes / 60);
  return h ? `${h}h ${String(minutes % 60).padStart(2, '0')}m` : `${minutes}m`;
}
