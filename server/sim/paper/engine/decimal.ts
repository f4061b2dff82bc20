/**
 * Exact decimal arithmetic for the paper engine (STYLE pattern 11: money is a decimal string until
 * it is drawn). Amounts are `bigint`s in units of 1e-18 ("fixed"): wide enough for every tick,
 * step and contract size of the catalogue (PEPE ticks are 1e-10) multiplied together, and for
 * inverse contract values (USD / price) to be exact to far below a satoshi. Prices and sizes live
 * in integer ticks and steps instead (units.ts); this module is only the scaled-integer toolbox.
 */

export const FIXED_DECIMALS = 18;
export const ONE = 10n ** 18n;

export type Rounding = 'floor' | 'ceil' | 'trunc' | 'half-up';

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

/**
 * A decimal string ("65000.5", "-0.010", "1") → fixed, or null when it is not a plain decimal or
 * has more than 18 significant decimals (trailing zeros beyond that are fine). No exponents: the
 * exchanges never send them and `Number` would have rounded them already.
 */
export function parseFixed(s: string): bigint | null {
  const m = DECIMAL.exec(s.trim());
  if (!m) return null;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > FIXED_DECIMALS) return null;
  const v = BigInt(m[2]) * ONE + BigInt(frac.padEnd(FIXED_DECIMALS, '0') || '0');
  return m[1] === '-' ? -v : v;
}

/** Like parseFixed but throws: for configuration the engine is given, not for user input. */
export function fixed(s: string): bigint {
  const v = parseFixed(s);
  if (v === null) throw new Error(`not an exact decimal: ${s}`);
  return v;
}

/** n / d rounded as asked (d ≠ 0). `half-up` rounds ties away from zero. */
export function divRound(n: bigint, d: bigint, rounding: Rounding): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates toward zero
  const r = n % d;
  if (r === 0n) return q;
  switch (rounding) {
    case 'trunc':
      return q;
    case 'floor':
      return n < 0n ? q - 1n : q;
    case 'ceil':
      return n > 0n ? q + 1n : q;
    case 'half-up': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice < d) return q;
      return n < 0n ? q - 1n : q + 1n;
    }
  }
}

/** a × b in fixed (both fixed), rounded. */
export const mulFixed = (a: bigint, b: bigint, rounding: Rounding = 'half-up'): bigint => divRound(a * b, ONE, rounding);

/** a ÷ b in fixed (both fixed), rounded. */
export const divFixed = (a: bigint, b: bigint, rounding: Rounding = 'half-up'): bigint => divRound(a * ONE, b, rounding);

/** Rounds a fixed amount to `decimals` places (the result is still in fixed units). */
export function roundFixed(v: bigint, decimals: number, rounding: Rounding = 'half-up'): bigint {
  if (decimals >= FIXED_DECIMALS) return v;
  const unit = 10n ** BigInt(FIXED_DECIMALS - decimals);
  return divRound(v, unit, rounding) * unit;
}

/** Fixed → a decimal string with exactly `decimals` places ("0.00000000", "65000.10"). */
export function formatFixed(v: bigint, decimals: number, rounding: Rounding = 'half-up'): string {
  const d = Math.max(0, Math.min(FIXED_DECIMALS, decimals));
  const scaled = divRound(v, 10n ** BigInt(FIXED_DECIMALS - d), rounding);
  const neg = scaled < 0n;
  const digits = (neg ? -scaled : scaled).toString().padStart(d + 1, '0');
  const int = digits.slice(0, digits.length - d);
  const frac = digits.slice(digits.length - d);
  return `${neg ? '-' : ''}${int}${d > 0 ? `.${frac}` : ''}`;
}

/** Fixed → the shortest exact decimal string ("0.01", "65000", "-1.5"): lossless, for storage. */
export function exactFixed(v: bigint): string {
  return trimZeros(formatFixed(v, FIXED_DECIMALS));
}

/** "0.0100" → "0.01", "5.000" → "5"; integers are left alone. */
export function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Number of decimals a decimal string shows ("0.10" → 2, "100" → 0). */
export function decimalsOf(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/**
 * A JS number from a catalogue (1e-6, 0.01, 10000000) → its shortest exact decimal string. Numbers
 * print in exponent form below 1e-6 ("1e-7"), which parseFixed rightly refuses; this expands them.
 */
export function numberToDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < 0) return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
  return `${m[1]}${digits.padEnd(exp + 1, '0')}`;
}

export const absBig = (v: bigint): bigint => (v < 0n ? -v : v);
export const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);
export const signBig = (v: bigint): -1n | 0n | 1n => (v > 0n ? 1n : v < 0n ? -1n : 0n);
