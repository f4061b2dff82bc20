import { z } from 'zod';

/**
 * Drawing records: data in time/price units, serialisable, with the SPEC §3 fields so the app can
 * persist them as they are (it adds exchange/symbol when storing). The engine keeps unknown keys
 * it is given (it spreads records when it updates them), so app-added fields survive a drag.
 */
export const DRAWING_COLORS = ['yellow', 'green', 'red', 'blue'] as const;
export const drawingColorSchema = z.enum(DRAWING_COLORS);
export type DrawingColor = z.infer<typeof drawingColorSchema>;
export const DEFAULT_DRAWING_COLOR: DrawingColor = 'blue';

/** SPEC §3 drawing modes; `default` is Select. */
export const DRAWING_MODES = ['default', 'line', 'rectangle', 'fib-retracement'] as const;
export type DrawingMode = (typeof DRAWING_MODES)[number];
export const DRAWING_MODE_LABELS: Record<DrawingMode, string> = {
  default: 'Select',
  line: 'Horizontal Line',
  rectangle: 'Rectangle',
  'fib-retracement': 'Fib Retracement',
};

export const pointSchema = z.object({ time: z.number().finite(), price: z.number().finite() });
export type DrawingPoint = z.infer<typeof pointSchema>;

export const horizontalLineSchema = z.object({
  id: z.string().min(1),
  kind: z.literal('line'),
  price: z.number().finite(),
  color: drawingColorSchema.default(DEFAULT_DRAWING_COLOR),
  symbol: z.string().optional(),
});
export type HorizontalLineDrawing = z.infer<typeof horizontalLineSchema>;

export const rectangleSchema = z.object({
  id: z.string().min(1),
  kind: z.literal('rectangle'),
  p1: pointSchema,
  p2: pointSchema,
  color: drawingColorSchema.default(DEFAULT_DRAWING_COLOR),
});
export type RectangleDrawing = z.infer<typeof rectangleSchema>;

/** SPEC §3 defaults; the fields are strings because that is how the product stores them. */
export const FIB_DEFAULTS = {
  fibAmountOfPositiveLines: '2',
  fibIncrement: '1',
  fibMainValue: '0.618',
  fibCustomValue: '',
} as const;

export const fibRetracementSchema = z.object({
  id: z.string().min(1),
  kind: z.literal('fib-retracement'),
  rect: z.object({ p1: pointSchema, p2: pointSchema }),
  fibColor: drawingColorSchema.default(DEFAULT_DRAWING_COLOR),
  fibAmountOfPositiveLines: z.string().default(FIB_DEFAULTS.fibAmountOfPositiveLines),
  fibIncrement: z.string().default(FIB_DEFAULTS.fibIncrement),
  fibMainValue: z.string().default(FIB_DEFAULTS.fibMainValue),
  fibCustomValue: z.string().default(FIB_DEFAULTS.fibCustomValue),
});
export type FibRetracementDrawing = z.infer<typeof fibRetracementSchema>;

export const drawingSchema = z.discriminatedUnion('kind', [horizontalLineSchema, rectangleSchema, fibRetracementSchema]);
export type Drawing = z.infer<typeof drawingSchema>;
export type DrawingKind = Drawing['kind'];
export const DRAWING_KINDS: readonly DrawingKind[] = ['line', 'rectangle', 'fib-retracement'];

export function drawingColorOf(d: Drawing): DrawingColor {
  return d.kind === 'fib-retracement' ? d.fibColor : d.color;
}
