/**
 * The chart engine's public face (DESIGN §8). Panels, the benchmark and tests import only this.
 */
export { createChart, type ChartEngine } from './chart-engine';
export type {
  Candle,
  CandleColumns,
  ChartEvents,
  ChartEventName,
  ChartOptions,
  CrosshairInfo,
  Instrument,
  ChartLine,
  Indicator,
  IndicatorKind,
  IndicatorValue,
  LineEdge,
  OffscreenLine,
  PositionLabels,
  PositionPlan,
  PositionToolOptions,
  PriceLine,
  PriceSource,
  RenderStats,
  Theme,
  TimeLine,
  Tool,
  ToolOptions,
  VisibleRange,
} from './types';
export {
  DEFAULT_DRAWING_COLOR,
  DRAWING_COLORS,
  DRAWING_KINDS,
  DRAWING_MODES,
  DRAWING_MODE_LABELS,
  FIB_DEFAULTS,
  drawingColorSchema,
  drawingSchema,
  fibRetracementSchema,
  horizontalLineSchema,
  pointSchema,
  rectangleSchema,
  type Drawing,
  type DrawingColor,
  type DrawingKind,
  type DrawingMode,
  type DrawingPoint,
  type FibRetracementDrawing,
  type HorizontalLineDrawing,
  type RectangleDrawing,
} from './drawings/records';
export { fibLevels, type FibLevel } from './drawings/fibonacci/levels';
export { toCandleColumns } from './core/candle-columns';
export { DEFAULT_THEME } from './model/theme';
export { roundToTick, formatPrice } from './model/price-format';
