/** Decimals needed to write a tick size exactly (0.1 → 1, 0.0005 → 4, 5e-8 → 8, 1 → 0). */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  for (let d = 0; d <= 12; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

/** Rounds to the nearest multiple of `tickSize`, without binary noise (0.1 + 0.2 → 0.3). */
export function roundToTick(value: number, tickSize: number): number {
  if (!(tickSize > 0)) return value;
  const rounded = Math.round(value / tickSize) * tickSize;
  return Number(rounded.toFixed(decimalsOf(tickSize)));
}

/** Formats with the instrument's precision; never prints "-0.00". */
export function formatPrice(value: number, precision: number): string {
  const s = value.toFixed(Math.max(0, Math.min(12, precision)));
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Compact volume: 950 · 12.3K · 4.56M · 1.2B. */
export function formatVolume(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${trim((v / 1e9).toFixed(2))}B`;
  if (a >= 1e6) return `${trim((v / 1e6).toFixed(2))}M`;
  if (a >= 1e3) return `${trim((v / 1e3).toFixed(2))}K`;
  return trim(v.toFixed(a >= 100 ? 0 : 2));
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Signed amount with two decimals: +12.30 / −4.00 (PnL on order and position lines). */
export function formatSigned(v: number, decimals = 2): string {
  const s = Math.abs(v).toFixed(decimals);
  return v > 0 ? `+${s}` : v < 0 ? `-${s}` : s;
}
