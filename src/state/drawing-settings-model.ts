import { z } from 'zod';
import { exchangeIdSchema } from '../api/contracts/common';

/** Storage name and version of the drawing settings (SPEC §4, §9). */
export const DRAWING_SETTINGS_NAME = 'drawing_settings';
export const DRAWING_SETTINGS_VERSION = 3;

/** Drawing tools (SPEC §3); the same names as the engine's `setTool`. */
export const DRAWING_MODES = ['default', 'line', 'rectangle', 'fib-retracement'] as const;
export type DrawingMode = (typeof DRAWING_MODES)[number];

/** Tool labels exactly per SPEC §3 ("rectangle" and "fib-retracement" have no label given). */
export const DRAWING_MODE_LABELS: Readonly<Partial<Record<DrawingMode, string>>> = {
  default: 'Select',
  line: 'Horizontal Line',
};

export const DRAWING_COLORS = ['yellow', 'green', 'red', 'blue'] as const;
export type DrawingColor = (typeof DRAWING_COLORS)[number];
export const DEFAULT_DRAWING_COLOR: DrawingColor = 'blue';

/** Fibonacci field defaults (SPEC §3); strings because they are what the user typed. */
export const FIB_DEFAULTS = {
  fibAmountOfPositiveLines: '2',
  fibIncrement: '1',
  fibMainValue: '0.618',
  fibCustomValue: '',
} as const;

/**
 * The two anchor points of a retracement in chart units: times in Unix seconds, prices in the
 * pair's quote currency. `start` is the 0 level and `end` the 1 level, as the user dragged them.
 */
export const fibRectSchema = z.object({
  startTime: z.number().finite(),
  startPrice: z.number().finite(),
  endTime: z.number().finite(),
  endPrice: z.number().finite(),
});
export type FibRect = z.infer<typeof fibRectSchema>;

/** A Fibonacci retracement the user placed on one pair's chart. An entry without a rect is invalid. */
export const fibSelectionSchema = z.object({
  id: z.string().min(1),
  exchange: exchangeIdSchema,
  symbol: z.string().min(1),
  rect: fibRectSchema,
  fibColor: z.enum(DRAWING_COLORS).catch(DEFAULT_DRAWING_COLOR),
  fibAmountOfPositiveLines: z.string().catch(FIB_DEFAULTS.fibAmountOfPositiveLines),
  fibIncrement: z.string().catch(FIB_DEFAULTS.fibIncrement),
  fibMainValue: z.string().catch(FIB_DEFAULTS.fibMainValue),
  fibCustomValue: z.string().catch(FIB_DEFAULTS.fibCustomValue),
});
export type FibSelection = z.infer<typeof fibSelectionSchema>;

/** Invalid entries (no rect, unknown exchange, ...) are dropped, keeping the valid ones. */
function validFibSelections(value: unknown): FibSelection[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: FibSelection[] = [];
  for (const entry of value) {
    const parsed = fibSelectionSchema.safeParse(entry);
    if (parsed.success && !seen.has(parsed.data.id)) {
      seen.add(parsed.data.id);
      out.push(parsed.data);
    }
  }
  return out;
}

export const drawingSettingsSchema = z.object({
  mode: z.enum(DRAWING_MODES).catch('default'),
  color: z.enum(DRAWING_COLORS).catch(DEFAULT_DRAWING_COLOR),
  fibSelections: z.unknown().optional().transform(validFibSelections),
});
export type DrawingSettings = z.infer<typeof drawingSettingsSchema>;

export function defaultDrawingSettings(): DrawingSettings {
  return drawingSettingsSchema.parse({});
}

export function sanitizeDrawingSettings(state: object): DrawingSettings {
  return drawingSettingsSchema.parse(state);
}
