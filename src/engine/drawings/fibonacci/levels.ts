import { FIB_DEFAULTS, type FibRetracementDrawing } from '../records';

export interface FibLevel {
  ratio: number;
  price: number;
  /** The fibMainValue level (drawn thicker). */
  main: boolean;
  /** The fibCustomValue level. */
  custom: boolean;
}

/** Most extension lines accepted from fibAmountOfPositiveLines (a typo must not draw 10,000 lines). */
export const MAX_POSITIVE_LINES = 20;

function num(s: string | undefined, fallback: number): number {
  if (s === undefined || s.trim() === '') return fallback;
  const v = Number(s.trim().replace(',', '.'));
  return Number.isFinite(v) ? v : fallback;
}

/** The SPEC string fields parsed, with the SPEC defaults standing in for blank or invalid values. */
export function fibParams(d: Pick<FibRetracementDrawing, 'fibAmountOfPositiveLines' | 'fibIncrement' | 'fibMainValue' | 'fibCustomValue'>): {
  amount: number;
  increment: number;
  main: number;
  custom: number | null;
} {
  const amount = Math.max(0, Math.min(MAX_POSITIVE_LINES, Math.floor(num(d.fibAmountOfPositiveLines, Number(FIB_DEFAULTS.fibAmountOfPositiveLines)))));
  let increment = num(d.fibIncrement, Number(FIB_DEFAULTS.fibIncrement));
  if (!(increment > 0)) increment = Number(FIB_DEFAULTS.fibIncrement);
  const main = num(d.fibMainValue, Number(FIB_DEFAULTS.fibMainValue));
  const customRaw = d.fibCustomValue?.trim() ?? '';
  const custom = customRaw === '' ? null : num(customRaw, Number.NaN);
  return { amount, increment, main, custom: custom !== null && Number.isFinite(custom) ? custom : null };
}

/**
 * The retracement's levels. The drawing runs from rect.p1 (start of the move) to rect.p2 (its end):
 * ratio 0 sits at p2, ratio 1 at p1, and price(r) = p2 + (p1 − p2) · r, so ratios between 0 and 1
 * retrace the move and ratios above 1 extend beyond its start. Levels drawn:
 * - 0 and 1 (the two ends),
 * - fibMainValue (default 0.618), drawn thicker,
 * - fibAmountOfPositiveLines (default 2) extension lines at 1 + k · fibIncrement (default 1) → 2, 3,
 * - fibCustomValue when it is a number (any ratio, e.g. 0.5 or −0.272).
 * Duplicates collapse; the list is sorted by ratio.
 */
export function fibLevels(d: FibRetracementDrawing): FibLevel[] {
  const { amount, increment, main, custom } = fibParams(d);
  const p1 = d.rect.p1.price;
  const p2 = d.rect.p2.price;
  const ratios: Array<{ ratio: number; main: boolean; custom: boolean }> = [
    { ratio: 0, main: false, custom: false },
    { ratio: 1, main: false, custom: false },
    { ratio: main, main: true, custom: false },
  ];
  for (let k = 1; k <= amount; k++) ratios.push({ ratio: round9(1 + k * increment), main: false, custom: false });
  if (custom !== null) ratios.push({ ratio: custom, main: false, custom: true });
  const out: FibLevel[] = [];
  for (const r of ratios.sort((a, b) => a.ratio - b.ratio)) {
    const prev = out[out.length - 1];
    if (prev && Math.abs(prev.ratio - r.ratio) < 1e-9) {
      prev.main ||= r.main;
      prev.custom ||= r.custom;
      continue;
    }
    out.push({ ratio: r.ratio, price: p2 + (p1 - p2) * r.ratio, main: r.main, custom: r.custom });
  }
  return out;
}

function round9(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}

/** Ratio as shown in labels: 0, 0.618, 1, 2.5 (no trailing zeros). */
export function formatRatio(r: number): string {
  return String(Number(r.toFixed(4)));
}
