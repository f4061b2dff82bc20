import { z } from 'zod';
import type { Indicator, IndicatorKind, PriceSource } from '../engine';

/**
 * A chart panel's overlay indicators as they are stored: in the chart's flexlayout node config
 * (saved with the layout), edited through the actions in `chart-links.ts`. The engine draws them
 * (`ChartEngine.setIndicators`); this file is the stored shape, its limits and the messages the
 * editor shows at a field.
 */

export const INDICATOR_KINDS = ['sma', 'ema', 'vwap', 'bollinger'] as const satisfies readonly IndicatorKind[];
export const PRICE_SOURCES = ['close', 'open', 'high', 'low', 'hl2', 'hlc3', 'ohlc4'] as const satisfies readonly PriceSource[];

/** Whole bars; the engine clamps to the same range (its MAX_INDICATOR_PERIOD). */
export const INDICATOR_PERIOD = { min: 1, max: 1000 } as const;
/** Bollinger band width in standard deviations. */
export const BOLLINGER_STD_DEV = { min: 0.1, max: 10 } as const;
/** Per chart: four cover the usual set (fast/slow average, VWAP, bands) with room to spare. */
export const MAX_CHART_INDICATORS = 8;

export const INDICATOR_KIND_LABELS: Record<IndicatorKind, string> = {
  sma: 'Moving average (SMA)',
  ema: 'Exponential moving average (EMA)',
  vwap: 'VWAP (UTC day)',
  bollinger: 'Bollinger bands',
};

export const PRICE_SOURCE_LABELS: Record<PriceSource, string> = {
  close: 'Close',
  open: 'Open',
  high: 'High',
  low: 'Low',
  hl2: '(H + L) / 2',
  hlc3: '(H + L + C) / 3',
  ohlc4: '(O + H + L + C) / 4',
};

/** Colours offered (and given in turn to new indicators): distinct from the candles' green and red. */
export const INDICATOR_COLORS = ['#f5c518', '#2962ff', '#e040fb', '#ff9800', '#26c6da', '#ffffff', '#8d6e63', '#00e676'] as const;

const period = z.number().int().min(INDICATOR_PERIOD.min).max(INDICATOR_PERIOD.max);
const common = {
  id: z.string().min(1).max(40),
  source: z.enum(PRICE_SOURCES),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
};

export const chartIndicatorSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('sma'), period }),
  z.object({ ...common, kind: z.literal('ema'), period }),
  z.object({ ...common, kind: z.literal('bollinger'), period, stdDev: z.number().min(BOLLINGER_STD_DEV.min).max(BOLLINGER_STD_DEV.max) }),
  z.object({ ...common, kind: z.literal('vwap') }),
]);
export type ChartIndicator = z.infer<typeof chartIndicatorSchema>;

/** The list for the engine (a stored indicator is an engine `Indicator`: this line fails to compile if they drift apart). */
export function toEngineIndicators(list: readonly ChartIndicator[]): Indicator[] {
  return list.map((i): Indicator => ({ ...i }));
}

/**
 * Reads a stored list entry by entry: an unreadable entry is dropped, the others kept (a layout must
 * not lose every indicator because one was written by a newer build). Not an array → undefined
 * (the chart has none).
 */
export function parseIndicators(value: unknown): ChartIndicator[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ChartIndicator[] = [];
  const ids = new Set<string>();
  for (const raw of value) {
    const parsed = chartIndicatorSchema.safeParse(raw);
    if (!parsed.success || ids.has(parsed.data.id) || out.length >= MAX_CHART_INDICATORS) continue;
    ids.add(parsed.data.id);
    out.push(parsed.data);
  }
  return out;
}

const newIndicatorId = () => `ind-${globalThis.crypto?.randomUUID?.().slice(0, 8) ?? Math.random().toString(36).slice(2, 10)}`;

/** A new indicator of `kind` with the usual defaults and the first colour the chart does not use yet. */
export function newIndicator(kind: IndicatorKind, existing: readonly ChartIndicator[], id = newIndicatorId()): ChartIndicator {
  const used = new Set(existing.map((i) => i.color.toLowerCase()));
  const color = INDICATOR_COLORS.find((c) => !used.has(c)) ?? INDICATOR_COLORS[existing.length % INDICATOR_COLORS.length];
  switch (kind) {
    case 'sma':
      return { id, kind, period: 20, source: 'close', color };
    case 'ema':
      return { id, kind, period: 50, source: 'close', color };
    case 'bollinger':
      return { id, kind, period: 20, stdDev: 2, source: 'close', color };
    case 'vwap':
      return { id, kind, source: 'hlc3', color };
  }
}

/** "SMA 20", "EMA 50 hl2", "BB 20 2", "VWAP" — the source only when it is not the kind's default. */
export function indicatorLabel(i: ChartIndicator): string {
  const source = i.source === (i.kind === 'vwap' ? 'hlc3' : 'close') ? '' : ` ${i.source}`;
  switch (i.kind) {
    case 'sma':
      return `SMA ${i.period}${source}`;
    case 'ema':
      return `EMA ${i.period}${source}`;
    case 'bollinger':
      return `BB ${i.period} ${i.stdDev}${source}`;
    case 'vwap':
      return `VWAP${source}`;
  }
}

/** What the editor holds while the user types (numbers may be empty or out of range). */
export interface IndicatorDraft {
  kind: IndicatorKind;
  period: number | string;
  stdDev: number | string;
  source: PriceSource;
  color: string;
}

export type IndicatorFieldErrors = Partial<Record<'period' | 'stdDev' | 'color', string>>;

/** Messages for the editor's fields, or the indicator to save (`id` kept). */
export function validateIndicatorDraft(id: string, d: IndicatorDraft): { indicator: ChartIndicator; errors: null } | { indicator: null; errors: IndicatorFieldErrors } {
  const errors: IndicatorFieldErrors = {};
  const num = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));
  const p = num(d.period);
  const k = num(d.stdDev);
  if (d.kind !== 'vwap' && !(Number.isInteger(p) && p >= INDICATOR_PERIOD.min && p <= INDICATOR_PERIOD.max)) {
    errors.period = `Period must be a whole number of bars from ${INDICATOR_PERIOD.min} to ${INDICATOR_PERIOD.max}`;
  }
  if (d.kind === 'bollinger' && !(Number.isFinite(k) && k >= BOLLINGER_STD_DEV.min && k <= BOLLINGER_STD_DEV.max)) {
    errors.stdDev = `Band width must be from ${BOLLINGER_STD_DEV.min} to ${BOLLINGER_STD_DEV.max} standard deviations`;
  }
  if (!/^#[0-9a-fA-F]{6}$/.test(d.color)) errors.color = 'Colour must be a hex colour such as #f5c518';
  if (Object.keys(errors).length) return { indicator: null, errors };
  const parsed = chartIndicatorSchema.parse({ id, kind: d.kind, period: p, stdDev: k, source: d.source, color: d.color.toLowerCase() });
  return { indicator: parsed, errors: null };
}

export function draftOf(i: ChartIndicator): IndicatorDraft {
  return {
    kind: i.kind,
    period: i.kind === 'vwap' ? 20 : i.period,
    stdDev: i.kind === 'bollinger' ? i.stdDev : 2,
    source: i.source,
    color: i.color,
  };
}
