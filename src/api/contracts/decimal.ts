import { z } from 'zod';

/**
 * Exact decimals for money, prices and sizes (DESIGN §3.1: decimal strings on the wire, never a float
 * that was summed). A value is a BigInt of units and a scale (digits after the point):
 * `{ units: 650005n, scale: 1 }` is 65000.5. Shared by the server (connectors, funded-user limits) and
 * the browser (risk sizing, display), so both compute the same digits. Division rounds explicitly.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Digits after the point any result may carry before rounding (well past any exchange's precision). */
export const MAX_SCALE = 18;

/** Canonical form: no leading zeros, no "+", no exponent. */
const DECIMAL_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** What `dec` reads: leading zeros are harmless ("007.5" is 7.5). */
const PLAIN_RE = /^-?\d+(?:\.\d+)?$/;
/** `1e-7` and `1.5E+3` too: exchanges print small quantities that way (Binance rarely, BitMEX floats). */
const EXPONENT_RE = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/;
/** Far past any money or float (1e308, 5e-324): larger exponents are refused before any arithmetic. */
const MAX_EXPONENT = 400;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

export function isDecimalString(s: string): boolean {
  return DECIMAL_RE.test(s);
}

/** Parses "65000.5", "-0.001", "1e-7" (also a finite number, through its shortest string). Throws on anything else. */
export function dec(value: string | number | bigint | Decimal): Decimal {
  if (typeof value === 'object') return value;
  if (typeof value === 'bigint') return { units: value, scale: 0 };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
    return dec(String(value));
  }
  const s = value.trim();
  const exp = EXPONENT_RE.exec(s);
  if (exp) {
    const [, sign, int, frac = '', e] = exp;
    // Bounded: 10 ** 99999999 as a BigInt takes seconds (a request field must not cost that).
    if (Math.abs(Number(e)) > MAX_EXPONENT) throw new RangeError(`Exponent out of range: "${value}"`);
    const digits = BigInt(`${int}${frac}`);
    const scale = frac.length - Number(e);
    const units = scale >= 0 ? digits : digits * pow10(-scale);
    return normalise({ units: sign ? -units : units, scale: Math.max(0, scale) });
  }
  if (!PLAIN_RE.test(s)) throw new SyntaxError(`Not a decimal: "${value}"`);
  const [int, frac = ''] = s.split('.');
  return { units: BigInt(`${int}${frac}`), scale: frac.length };
}

/** Same value, fewest digits after the point (trailing zeros removed). */
export function normalise(a: Decimal): Decimal {
  let { units, scale } = a;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { units, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export const add = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
};
export const sub = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
};
export const mul = (a: Decimal, b: Decimal): Decimal => normalise({ units: a.units * b.units, scale: a.scale + b.scale });
export const neg = (a: Decimal): Decimal => ({ units: -a.units, scale: a.scale });
export const abs = (a: Decimal): Decimal => (a.units < 0n ? neg(a) : a);
export const cmp = (a: Decimal, b: Decimal): -1 | 0 | 1 => {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
};
export const isZero = (a: Decimal): boolean => a.units === 0n;
export const sign = (a: Decimal): -1 | 0 | 1 => (a.units < 0n ? -1 : a.units > 0n ? 1 : 0);
export const min = (a: Decimal, b: Decimal): Decimal => (cmp(a, b) <= 0 ? a : b);
export const max = (a: Decimal, b: Decimal): Decimal => (cmp(a, b) >= 0 ? a : b);

export type Rounding = 'down' | 'up' | 'half-even' | 'half-up';

/** Integer division of BigInts with a rounding mode (down/up are toward zero / away from zero). */
function divRound(n: bigint, d: bigint, mode: Rounding): bigint {
  if (d === 0n) throw new RangeError('Division by zero');
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const away = (n < 0n) !== (d < 0n) ? -1n : 1n;
  if (mode === 'down') return q;
  if (mode === 'up') return q + away;
  const twice = (r < 0n ? -r : r) * 2n;
  const dd = d < 0n ? -d : d;
  if (twice > dd) return q + away;
  if (twice < dd) return q;
  return mode === 'half-up' || q % 2n !== 0n ? q + away : q;
}

/** a ÷ b with `scale` digits after the point (default MAX_SCALE), rounded as asked (default half-even). */
export function div(a: Decimal, b: Decimal, scale = MAX_SCALE, mode: Rounding = 'half-even'): Decimal {
  // a.units/10^a.scale ÷ b.units/10^b.scale = a.units × 10^(scale + b.scale − a.scale) / b.units at `scale`.
  const shift = scale + b.scale - a.scale;
  const n = shift >= 0 ? a.units * pow10(shift) : a.units;
  const d = shift >= 0 ? b.units : b.units * pow10(-shift);
  return normalise({ units: divRound(n, d, mode), scale });
}

/** Rounds to `scale` digits after the point. */
export function round(a: Decimal, scale: number, mode: Rounding = 'half-even'): Decimal {
  if (a.scale <= scale) return a;
  return normalise({ units: divRound(a.units, pow10(a.scale - scale), mode), scale });
}

/**
 * Rounds to a multiple of `step` (a tick size or a lot step such as "0.5" or "0.001"): sizes round
 * down (never more than asked or affordable), prices to the nearest tick unless told otherwise.
 */
export function roundToStep(a: Decimal, step: Decimal, mode: Rounding = 'half-even'): Decimal {
  if (step.units <= 0n) throw new RangeError('A step must be positive');
  const [x, s, scale] = align(a, step);
  return normalise({ units: divRound(x, s, mode) * s, scale });
}

export const isMultipleOf = (a: Decimal, step: Decimal): boolean => {
  const [x, s] = align(a, step);
  return s !== 0n && x % s === 0n;
};

/** The plain decimal string ("65000.5", "0.001", "-3"): what goes on the wire. */
export function str(a: Decimal): string {
  const n = normalise(a);
  const negative = n.units < 0n;
  const digits = (negative ? -n.units : n.units).toString().padStart(n.scale + 1, '0');
  const int = digits.slice(0, digits.length - n.scale);
  const frac = n.scale ? `.${digits.slice(digits.length - n.scale)}` : '';
  return `${negative ? '-' : ''}${int}${frac}`;
}

/** With exactly `scale` digits after the point ("0.10"), as exchanges print tick-sized prices. */
export function fixed(a: Decimal, scale: number, mode: Rounding = 'half-even'): string {
  const r = round(a, scale, mode);
  const units = r.units * pow10(scale - r.scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}${scale ? `.${digits.slice(digits.length - scale)}` : ''}`;
}

/** en-US thousands separators in a decimal's text, the sign and the fraction kept ("-1234567.5" → "-1,234,567.5"). */
export function groupThousands(text: string): string {
  const [int, frac] = text.split('.');
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac !== undefined ? `.${frac}` : ''}`;
}

/** For drawing only (a chart coordinate, a bar width): never for arithmetic that is stored or sent. */
export const toNumber = (a: Decimal): number => Number(str(a));

/** Digits after the point of a step such as "0.001" (3) or "0.5" (1). */
export const scaleOf = (step: string): number => normalise(dec(step)).scale;

/**
 * A decimal string on the wire: a plain number with at most `maxDigits` significant digits and
 * `maxScale` after the point. Positive unless `signed`.
 */
export const decimalStringSchema = (opts: { signed?: boolean; allowZero?: boolean; maxScale?: number; maxDigits?: number } = {}) =>
  z
    .string()
    .max(48)
    .regex(opts.signed ? /^-?\d+(\.\d+)?$/ : /^\d+(\.\d+)?$/, 'Must be a decimal number written with digits, e.g. "65000.5"')
    .refine((s) => (s.split('.')[1]?.length ?? 0) <= (opts.maxScale ?? MAX_SCALE), `Use at most ${opts.maxScale ?? MAX_SCALE} decimal places`)
    .refine((s) => s.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length <= (opts.maxDigits ?? 30), `At most ${opts.maxDigits ?? 30} digits`)
    // zod runs every check even after the pattern failed: only parse what the pattern admits.
    .refine((s) => opts.allowZero || opts.signed || !PLAIN_RE.test(s) || dec(s).units !== 0n, 'Must be greater than 0');

/** One end of a `columnDecimalSchema` range: the bound as decimal text and what to say past it. */
export interface DecimalBound {
  value: string;
  message: string;
  /** The bound itself is allowed (default true); `false` for "above 0". */
  inclusive?: boolean;
}

/**
 * Money or a ratio that a PostgreSQL `numeric(precision, scale)` column stores exactly, read as a
 * canonical decimal string (issue 22: money is never a float). More decimals than the column keeps
 * are refused, not rounded (PostgreSQL would round `1e-9` to 0 silently); more digits before the
 * point than it holds are refused (PostgreSQL would answer an error). A JSON number is read through
 * its shortest text (what a person typed), so older clients that send `1.5` keep working.
 */
export function columnDecimalSchema(column: { precision: number; scale: number }, bounds: { min?: DecimalBound; max?: DecimalBound; required?: string } = {}) {
  const digits = column.precision - column.scale;
  const missing = bounds.required ?? 'Enter a number, e.g. 1500.25';
  return z.union([z.string().trim().max(64, 'Enter a number, e.g. 1500.25'), z.number()], { error: missing }).transform((raw, ctx): string => {
    const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : raw;
    if (!PLAIN_RE.test(text) && !EXPONENT_RE.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'Enter a number, e.g. 1500.25' });
      return z.NEVER;
    }
    let value: Decimal;
    try {
      value = normalise(dec(text));
    } catch {
      // Only an exponent past MAX_EXPONENT gets here: far too small or far too large for any column.
      ctx.addIssue({ code: 'custom', message: /e-/i.test(text) ? `Use at most ${column.scale} decimal places` : `At most ${digits} digits before the decimal point` });
      return z.NEVER;
    }
    if (value.scale > column.scale) {
      ctx.addIssue({ code: 'custom', message: `Use at most ${column.scale} decimal places` });
      return z.NEVER;
    }
    const { min: lo, max: hi } = bounds;
    const below = lo && (lo.inclusive === false ? cmp(value, dec(lo.value)) <= 0 : cmp(value, dec(lo.value)) < 0);
    const above = hi && (hi.inclusive === false ? cmp(value, dec(hi.value)) >= 0 : cmp(value, dec(hi.value)) > 0);
    if (below || above) {
      ctx.addIssue({ code: 'custom', message: below ? lo.message : (hi as DecimalBound).message });
      return z.NEVER;
    }
    if (cmp(abs(value), { units: pow10(digits), scale: 0 }) >= 0) {
      ctx.addIssue({ code: 'custom', message: `At most ${digits} digits before the decimal point` });
      return z.NEVER;
    }
    return str(value);
  });
}
