import type { Drawing, DrawingColor, DrawingKind } from './drawings/records';

/** One bar. `time` is the bar's open time in unix seconds (the exchanges' convention). */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Bars as columns (`setCandleColumns`): row i of every array is one bar, oldest first, `time` in unix
 * seconds strictly increasing. The engine keeps these arrays (no copy): after the call they are the
 * engine's — it writes live bars into them — so do not change them, reuse them or hand them to another chart.
 */
export interface CandleColumns {
  time: Float64Array<ArrayBuffer>;
  open: Float64Array<ArrayBuffer>;
  high: Float64Array<ArrayBuffer>;
  low: Float64Array<ArrayBuffer>;
  close: Float64Array<ArrayBuffer>;
  volume: Float64Array<ArrayBuffer>;
  /**
   * Rows in use (default: the arrays' length). The arrays may be longer: rows past `length` are spare
   * capacity that live bars (`updateLastCandle`) fill before the columns have to grow.
   */
  length?: number;
}

/** The instrument's price grid: prices are rounded to `tickSize` and shown with `precision` decimals. */
export interface Instrument {
  tickSize: number;
  precision: number;
}

/** Logical bar indexes (0 = oldest loaded bar); fractional values allowed. */
export interface VisibleRange {
  from: number;
  to: number;
}

/** `position`: the on-chart position tool (stop, entry, targets; see README "The position tool"). */
export type Tool = 'default' | DrawingKind | 'position';

/** The position tool's prices (chart units, tick-rounded), as `positionChanged` reports them. */
export interface PositionPlan {
  /** The bar the zones start at (unix s). */
  time: number;
  stop: number;
  entry: number;
  /** Take-profit prices, nearest first as placed (the user may drag them past each other). */
  targets: number[];
  /** Long when the stop is below the entry. */
  side: 'long' | 'short';
}

/** The position's labels, composed by the app (sizes and money are not the engine's); a missing one keeps the engine's default. */
export interface PositionLabels {
  stop?: string;
  entry?: string;
  /** One per target, in `PositionPlan.targets` order. */
  targets?: string[];
}

export interface PositionToolOptions {
  /** R multiples of the targets a new position gets (default 1, 2, 3). */
  targets?: number[];
  /** Labels of the levels, asked on every paint while a position is shown (keep it cheap). */
  labels?: (plan: PositionPlan) => PositionLabels;
}

/** Alert, order and position lines placed by the app (not user drawings). */
export interface PriceLine {
  id: string;
  kind: 'alert' | 'order' | 'position';
  price: number;
  /**
   * Which price of an order or position the line shows. Orders: entry, stop, take-profit.
   * Positions: entry, liquidation, break-even. Alerts ignore it.
   */
  role?: 'entry' | 'stop' | 'take-profit' | 'liquidation' | 'break-even';
  side?: 'buy' | 'sell';
  size?: number;
  /** Unrealised PnL (quote currency, or the coin of an inverse contract), shown signed with `pnlDecimals` decimals. */
  pnl?: number;
  /** Decimals of `pnl` in the label (default 2; a coin amount needs more: 0.00025 BTC). */
  pnlDecimals?: number;
  /** The currency after `pnl` in the label ("BTC"); none by default. */
  pnlUnit?: string;
  /** Overrides the label the engine composes from kind/role/side/size/pnl. */
  label?: string;
  /** Appended to the composed label after " · " ("managed by server"). */
  note?: string;
  /** Overrides the colour picked from kind/role/side. */
  color?: string;
  /** When true the user can drag the line; dropping it emits `lineDragged` with a tick-rounded price. */
  draggable?: boolean;
  /** When true a ✕ box follows the label; a click on it emits `lineCloseClicked` (the app cancels or closes). */
  closable?: boolean;
}

/** The plot edge a price line outside the visible price range is pinned to: its price is higher than the top, or lower than the bottom. */
export type LineEdge = 'above' | 'below';

/** A price line outside the visible price range, drawn as a marker pinned to the plot's top or bottom edge. */
export interface OffscreenLine {
  id: string;
  line: PriceLine;
  edge: LineEdge;
  /** The marker as last painted (CSS px from the chart's top-left corner): a click inside it brings the line into view. */
  box: { left: number; top: number; width: number; height: number };
}

/** A vertical line at a time (a fill, an event, a session open), labelled on the time axis. */
export interface TimeLine {
  id: string;
  kind: 'time';
  /** Unix seconds; between bars it is placed proportionally, past the last bar extrapolated. */
  time: number;
  /** Shown on the time axis instead of the time. */
  label?: string;
  color?: string;
}

/** What `setLines` accepts: horizontal price lines and vertical time lines. */
export type ChartLine = PriceLine | TimeLine;

/**
 * The price an indicator reads from each bar: one of the OHLC fields, or hl2 = (high + low) / 2,
 * hlc3 = (high + low + close) / 3 (the "typical price"), ohlc4 = (open + high + low + close) / 4.
 */
export type PriceSource = 'close' | 'open' | 'high' | 'low' | 'hl2' | 'hlc3' | 'ohlc4';

interface IndicatorBase {
  /** The app's id (the legend and `getIndicatorValues` report it; an unchanged id + parameters keeps its computed values). */
  id: string;
  source: PriceSource;
  /** CSS colour: `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()`. */
  color: string;
}

/**
 * An overlay indicator computed from the candles (see README "Indicators"). Periods are whole bars,
 * clamped to 1…`MAX_INDICATOR_PERIOD`.
 * - `sma`, `ema`: simple / exponential moving average over `period` bars (EMA seeded with the SMA of its first `period` bars);
 * - `bollinger`: SMA over `period` ± `stdDev` × the population standard deviation over the same bars;
 * - `vwap`: volume-weighted average of `source` since the start of the bar's UTC day (session-anchored).
 */
export type Indicator =
  | (IndicatorBase & { kind: 'sma' | 'ema'; period: number })
  | (IndicatorBase & { kind: 'bollinger'; period: number; stdDev: number })
  | (IndicatorBase & { kind: 'vwap' });

export type IndicatorKind = Indicator['kind'];

/** Values of one indicator at one bar: `[value]`, or `[basis, upper, lower]` for Bollinger bands; NaN before enough bars. */
export interface IndicatorValue {
  id: string;
  values: number[];
}

export interface Theme {
  background: string;
  grid: string;
  text: string;
  axisBackground: string;
  axisBorder: string;
  up: string;
  down: string;
  volumeUp: string;
  volumeDown: string;
  crosshair: string;
  crosshairLabel: string;
  crosshairLabelText: string;
  alert: string;
  buy: string;
  sell: string;
  liquidation: string;
  breakEven: string;
  selection: string;
  drawing: Record<DrawingColor, string>;
  fontFamily: string;
  fontSize: number;
}

export interface ToolOptions {
  /** Colour of new horizontal lines and rectangles, and fibColor of new retracements. */
  color?: DrawingColor;
  /** Snap drawing points to the nearest open/high/low/close within a few pixels. */
  magnet?: boolean;
  /** Fibonacci fields for new retracements (strings, as SPEC stores them). */
  fib?: { fibAmountOfPositiveLines?: string; fibIncrement?: string; fibMainValue?: string; fibCustomValue?: string };
  /** Symbol stamped on new horizontal lines (SPEC's horizontalLines carry one). */
  symbol?: string;
}

export interface ChartOptions {
  /** Colours and font; unspecified keys keep the dark default theme. */
  theme?: Partial<Theme>;
  /** Defaults to `window.devicePixelRatio`. */
  devicePixelRatio?: number;
  /** Watch the container with a ResizeObserver (default true). */
  autoResize?: boolean;
  /** Clock in milliseconds for the bar-close countdown (tests pass a fixed clock). */
  now?: () => number;
  /** Displayed times are shifted by this many seconds (0 = UTC). */
  timeOffsetSeconds?: number;
  /** `needHistory` is emitted at the latest when the left edge comes within this many bars of the oldest bar (default 50). */
  historyThreshold?: number;
  /**
   * Bars left of the view below which `needHistory` is emitted, in screens of the visible span
   * (default 2; at least `historyThreshold` bars, at most 2,000): the next page is fetched before
   * the user reaches the oldest bar.
   */
  historyPrefetchScreens?: number;
  /** Shown in the middle of the chart without candles (default "No data"); "" draws nothing (the host shows its own message). */
  emptyText?: string;
  /** Creates ids for new drawings (default: crypto.randomUUID). */
  createId?: () => string;
  instrument?: Instrument;
  toolOptions?: ToolOptions;
}

export interface CrosshairInfo {
  /** Bar index under the cursor (fractional indexes are rounded to the nearest bar). */
  index: number;
  /** Time of that bar (extrapolated past the last bar). */
  time: number;
  /** Price at the cursor, rounded to the tick size. */
  price: number;
  candle: Candle | null;
  x: number;
  y: number;
}

export interface ChartEvents {
  /** The user scrolled near the oldest loaded bar: the payload is `beforeTime` (unix s of the oldest loaded bar): load older bars and call `prependCandles`. */
  needHistory: number;
  /** A drawing was created or changed (on pointer-up). The app persists it and pushes it back via `setDrawings`. */
  drawingCommitted: { drawing: Drawing; created: boolean };
  drawingDeleted: { id: string; drawing: Drawing };
  /** A draggable price line was dropped at a new (tick-rounded) price. */
  lineDragged: { id: string; line: PriceLine; price: number };
  /** The ✕ of a closable price line was clicked (pressed and released on it without moving). */
  lineCloseClicked: { id: string; line: PriceLine };
  /**
   * The price lines pinned to the plot's edges changed (emitted after the paint that changed them):
   * every line now outside the visible price range, with its edge and its marker's box.
   */
  offscreenLines: OffscreenLine[];
  /** Cursor moved over the chart (null when it left). */
  crosshair: CrosshairInfo | null;
  /** The active tool changed inside the engine (Escape, or back to Select after a drawing was placed). */
  toolChanged: { tool: Tool };
  /** The selected drawing changed (null: nothing selected). */
  selectionChanged: { id: string | null };
  /** The position tool's position was placed or a level dropped (null: cancelled or cleared); not emitted while the pointer moves. */
  positionChanged: PositionPlan | null;
}

export type ChartEventName = keyof ChartEvents;

/**
 * What the last paint sent to the GPU (`ChartEngine.getRenderStats()`, for benchmarks and
 * debugging). Counted at the WebGL calls of the chart's own context, so Pixi's text batches count too.
 */
export interface RenderStats {
  /** Paints since the chart was created. */
  frames: number;
  /** Draw calls of the last paint. */
  drawCalls: number;
  /** Vertices the last paint processed (indices drawn × instances, summed over draw calls). */
  vertices: number;
  /** Instances drawn by instanced calls (candle columns, primitives, line segments). */
  instances: number;
  /** Bytes uploaded into vertex/index/uniform buffers by the last paint. */
  bufferBytes: number;
  /** Texture uploads (texImage2D / texSubImage2D calls) of the last paint. */
  textureUploads: number;
  /** Candle columns drawn (one instance each: wick + body + volume). */
  seriesColumns: number;
  /** Bars per drawn column: 1 when every bar is drawn, more when the level of detail aggregates. */
  barsPerColumn: number;
  /** Device pixels covered by the series quads (wicks, bodies, volume), i.e. the candles' fill cost. */
  seriesPixels: number;
  /** Labels shown, and labels whose string changed (re-laid-out) in the last paint. */
  texts: number;
  textLayouts: number;
}
