import { Emitter } from './core/emitter';
import { InvalidationLevel } from './core/invalidate-mask';
import { DEFAULT_DRAWING_COLOR, FIB_DEFAULTS, type Drawing, type DrawingPoint } from './drawings/records';
import { CreateLineTool, CreateTwoPointTool } from './interaction/create-tools';
import { isValidDraft, planOf, PositionTool, type PositionDraft, type PositionHost } from './interaction/position-tool';
import type { ControllerHost, Region } from './interaction/dom-controller';
import { SelectTool } from './interaction/select-tool';
import type { Target, ToolMachine } from './interaction/tool';
import { ChartModel } from './model/chart-model';
import { shouldRequestHistory, showsHistoryLoading } from './model/history-prefetch';
import { revealRange } from './model/offscreen-lines';
import type { Candle, CandleColumns, ChartEvents, ChartLine, ChartOptions, Indicator, IndicatorValue, Instrument, OffscreenLine, PositionPlan, PositionToolOptions, PriceLine, TimeLine, Tool, ToolOptions, VisibleRange } from './types';

const TOOL_PATH_PREFIX: Record<Tool, string> = { default: 'select', line: 'line', rectangle: 'rectangle', 'fib-retracement': 'fib-retracement', position: 'position' };
const DEFAULT_POSITION_TARGETS = [1, 2, 3];

type ResolvedToolOptions = { color: NonNullable<ToolOptions['color']>; magnet: boolean; symbol?: string; fib: Required<NonNullable<ToolOptions['fib']>> };

/**
 * The engine without DOM or GPU: data, viewport, drawings, tools, gestures and events. The façade
 * adds the canvas, the renderer and the frame loop; unit tests drive this class directly with
 * scripted pointer events.
 */
export class ChartController implements PositionHost, ControllerHost {
  readonly model = new ChartModel();
  readonly events = new Emitter<ChartEvents>();
  private readonly tools: Record<Tool, ToolMachine>;
  private active: ToolMachine;
  private readonly toolOptions: ResolvedToolOptions;
  private historyExhausted = false;
  /** What the last `offscreenLines` event reported (ids, edges and boxes), so it fires only on a change. */
  private offscreenKey = '';

  constructor(
    private readonly options: ChartOptions,
    /** Called with the level of every change; the façade merges them into one paint per frame. */
    readonly invalidate: (level: InvalidationLevel) => void,
    private readonly cursor: (css: string) => void = () => {},
  ) {
    if (options.instrument) this.model.instrument = { ...options.instrument };
    this.toolOptions = {
      color: options.toolOptions?.color ?? DEFAULT_DRAWING_COLOR,
      magnet: options.toolOptions?.magnet ?? true,
      symbol: options.toolOptions?.symbol,
      fib: { ...FIB_DEFAULTS, ...options.toolOptions?.fib },
    };
    this.model.magnet = this.toolOptions.magnet;
    this.tools = {
      default: new SelectTool(this),
      line: new CreateLineTool(this),
      rectangle: new CreateTwoPointTool(this, 'rectangle'),
      'fib-retracement': new CreateTwoPointTool(this, 'fib-retracement'),
      position: new PositionTool(this),
    };
    this.active = this.tools.default;
  }

  // ── data and viewport ─────────────────────────────────────────────────────────────────────

  setCandles(candles: readonly Candle[]): void {
    this.model.store.set(candles);
    this.replaced();
  }

  /** The columns become the store's (validated, not copied): the first frame allocates nothing per bar. */
  setCandleColumns(columns: CandleColumns): void {
    this.model.store.adopt(columns);
    this.replaced();
  }

  /** After the store's rows were replaced: indicators, level of detail, view and history state start over. */
  private replaced(): void {
    const m = this.model;
    m.indicators.reset();
    m.pyramid.invalidate();
    m.timeIndex.refreshInterval();
    m.timeScale.reset(m.store.length);
    m.priceScale.autoScale = true;
    m.historyLoading = false;
    this.historyExhausted = false;
    this.invalidate(InvalidationLevel.full);
  }

  prependCandles(candles: readonly Candle[]): void {
    const m = this.model;
    m.historyLoading = false;
    const added = m.store.prepend(candles);
    if (added === 0) {
      this.historyExhausted = true;
    } else {
      m.indicators.prepended(added);
      m.pyramid.invalidate();
      m.timeScale.shift(added);
      m.timeIndex.refreshInterval();
    }
    this.invalidate(InvalidationLevel.full);
  }

  updateLastCandle(candle: Candle): void {
    const m = this.model;
    const before = m.store.length;
    // Follow the live edge only when the last bar is in view (a user reading history stays put).
    const following = before > 0 && m.timeScale.to >= before - 1;
    const result = m.store.updateLast(candle);
    if (result === 'ignored') return;
    if (result === 'appended') {
      if (before === 0) m.timeScale.reset(1);
      else if (following) m.timeScale.shift(1);
      if (before < 3) m.timeIndex.refreshInterval();
    }
    m.pyramid.syncTail();
    m.indicators.lastChanged(result === 'appended');
    this.invalidate(InvalidationLevel.full);
  }

  /** Replaces the overlay indicators; unchanged ones (same id and parameters) keep their values. */
  setIndicators(list: readonly Indicator[]): void {
    this.model.indicators.setSpecs(list);
    this.invalidate(InvalidationLevel.full);
  }

  getIndicatorValues(index?: number): IndicatorValue[] {
    return this.model.indicators.valuesAt(index);
  }

  setInstrument(i: Instrument): void {
    this.model.instrument = { tickSize: i.tickSize, precision: i.precision };
    this.invalidate(InvalidationLevel.full);
  }

  setVisibleRange(r: VisibleRange): void {
    this.model.timeScale.setRange(r, this.model.store.length);
    this.invalidate(InvalidationLevel.full);
  }

  getVisibleRange(): VisibleRange {
    return this.model.timeScale.range;
  }

  resetView(): void {
    this.model.timeScale.reset(this.model.store.length);
    this.invalidate(InvalidationLevel.full);
  }

  setSize(width: number, height: number, dpr: number): void {
    this.model.setSize(width, height, dpr);
    this.invalidate(InvalidationLevel.full);
  }

  /**
   * Emits needHistory once when fewer than `historyPrefetchScreens` screens of bars are left of the
   * view (called after each paint), so the page usually arrives before the user reaches the edge.
   */
  checkHistory(): void {
    const m = this.model;
    const view = { from: m.timeScale.from, to: m.timeScale.to, count: m.store.length, loading: m.historyLoading, exhausted: this.historyExhausted };
    if (!shouldRequestHistory(view, { thresholdBars: this.options.historyThreshold, prefetchScreens: this.options.historyPrefetchScreens })) return;
    m.historyLoading = true;
    this.events.emit('needHistory', m.store.timeAt(0));
    // The loading indicator appears on the next paint if the user is already at the edge (unless the handler already prepended).
    if (showsHistoryLoading({ from: m.timeScale.from, to: m.timeScale.to, loading: m.historyLoading })) this.invalidate(InvalidationLevel.light);
  }

  // ── drawings, lines, tools ────────────────────────────────────────────────────────────────

  setDrawings(d: readonly Drawing[]): void {
    this.model.drawings = [...d];
    const sel = this.model.selectedId;
    if (sel && !d.some((x) => x.id === sel) && this.model.previewDrawing?.id !== sel) this.select(null);
    this.invalidate(InvalidationLevel.light);
  }

  getDrawings(): Drawing[] {
    return this.model.visibleDrawings();
  }

  setLines(l: readonly ChartLine[]): void {
    this.model.lines = l.filter((x): x is PriceLine => x.kind !== 'time');
    this.model.timeLines = l.filter((x): x is TimeLine => x.kind === 'time');
    this.invalidate(InvalidationLevel.light);
  }

  /**
   * Brings price line `id` into view with some margin: the price scale goes to manual and its range
   * widens on the line's side (what was in view stays in view), or, for a line far away, moves to
   * it. False when there is no such line or it is already well inside the plot.
   */
  revealLine(id: string): boolean {
    const m = this.model;
    const line = m.lines.find((l) => l.id === id);
    if (!line) return false;
    const ps = m.priceScale;
    const range = revealRange(ps.min, ps.max, m.linePrice(line), ps.paneHeight);
    if (!range) return false;
    ps.autoScale = false;
    ps.setDomain(range.lo, range.hi);
    this.invalidate(InvalidationLevel.full);
    return true;
  }

  /** The lines pinned to the plot's edges as markers, as last painted. */
  getOffscreenLines(): OffscreenLine[] {
    return this.model.offscreenLines.map((o) => ({ ...o, box: { ...o.box } }));
  }

  /** Emits `offscreenLines` when the pinned lines (or their markers' boxes) changed with the last paint. */
  checkOffscreenLines(): void {
    const key = this.model.offscreenLines.map((o) => `${o.id} ${o.edge} ${o.box.left},${o.box.top},${o.box.width}`).join('\n');
    if (key === this.offscreenKey) return;
    this.offscreenKey = key;
    this.events.emit('offscreenLines', this.getOffscreenLines());
  }

  setTool(t: Tool): void {
    if (!(t in this.tools)) return;
    // Choosing the position tool again keeps the position being laid out (the app re-applies its tool).
    if (t === 'position' && this.active.id === 'position') return;
    this.active.cancel();
    this.active = this.tools[t];
    this.invalidate(InvalidationLevel.light);
  }

  getTool(): Tool {
    return this.active.id;
  }

  getInteractionState(): string {
    return `${TOOL_PATH_PREFIX[this.active.id]}.${this.active.state}`;
  }

  setToolOptions(o: ToolOptions): void {
    if (o.color) this.toolOptions.color = o.color;
    if (o.magnet !== undefined) this.toolOptions.magnet = this.model.magnet = o.magnet;
    if (o.symbol !== undefined) this.toolOptions.symbol = o.symbol;
    if (o.fib) this.toolOptions.fib = { ...this.toolOptions.fib, ...o.fib };
  }

  selectDrawing(id: string | null): void {
    this.select(id !== null && this.model.visibleDrawings().some((d) => d.id === id) ? id : null);
  }

  // ── ToolHost ──────────────────────────────────────────────────────────────────────────────

  target(x: number, y: number): Target {
    return this.model.target(x, y);
  }

  drawing(id: string): Drawing | undefined {
    return this.model.visibleDrawings().find((d) => d.id === id);
  }

  ctx() {
    return this.model.drawingContext();
  }

  pointAt(x: number, y: number): DrawingPoint {
    return this.model.pointAt(x, y);
  }

  select(id: string | null): void {
    if (this.model.selectedId === id) return;
    this.model.selectedId = id;
    this.events.emit('selectionChanged', { id });
    this.invalidate(InvalidationLevel.light);
  }

  selectedId(): string | null {
    return this.model.selectedId;
  }

  hover(target: Target): void {
    const id = target?.type === 'drawing' ? target.hit.id : null;
    const lineId = target?.type === 'line' || target?.type === 'line-close' ? target.id : null;
    if (id === this.model.hoveredId && lineId === this.model.hoveredLineId) return;
    this.model.hoveredId = id;
    this.model.hoveredLineId = lineId;
    this.invalidate(InvalidationLevel.light);
  }

  preview(d: Drawing | null): void {
    this.model.previewDrawing = d;
    this.invalidate(InvalidationLevel.light);
  }

  commit(d: Drawing, created: boolean): void {
    // Shown at once; the app's next setDrawings snapshot supersedes it.
    const i = this.model.drawings.findIndex((x) => x.id === d.id);
    if (i >= 0) this.model.drawings[i] = d;
    else this.model.drawings.push(d);
    this.events.emit('drawingCommitted', { drawing: d, created });
    this.invalidate(InvalidationLevel.light);
  }

  previewLine(id: string, price: number | null): void {
    this.model.linePreview = price === null ? null : { id, price };
    this.invalidate(InvalidationLevel.light);
  }

  commitLine(id: string, price: number): void {
    const line = this.model.lines.find((l) => l.id === id);
    if (!line) return;
    this.model.lines = this.model.lines.map((l) => (l.id === id ? { ...l, price } : l));
    this.events.emit('lineDragged', { id, line, price });
    this.invalidate(InvalidationLevel.light);
  }

  closeLine(id: string): void {
    const line = this.model.lines.find((l) => l.id === id);
    if (line?.closable) this.events.emit('lineCloseClicked', { id, line });
  }

  linePrice(id: string): number | undefined {
    return this.model.lines.find((l) => l.id === id)?.price;
  }

  pan(dx: number, dy: number): void {
    this.panBy(dx, dy);
  }

  setCursor(css: string): void {
    this.cursor(css);
  }

  exitTool(): void {
    if (this.active === this.tools.default) return;
    this.active = this.tools.default;
    this.events.emit('toolChanged', { tool: 'default' });
  }

  // ── the position tool ─────────────────────────────────────────────────────────────────────

  showPosition(d: PositionDraft | null, settled: boolean): void {
    this.model.position = d;
    this.invalidate(InvalidationLevel.light);
    if (settled) this.events.emit('positionChanged', d && isValidDraft(d) ? planOf(d) : null);
  }

  positionTargets(): readonly number[] {
    return this.model.positionOptions.targets ?? DEFAULT_POSITION_TARGETS;
  }

  setPositionOptions(o: PositionToolOptions): void {
    this.model.positionOptions = { ...this.model.positionOptions, ...o };
    this.invalidate(InvalidationLevel.light);
  }

  getPosition(): PositionPlan | null {
    const d = this.model.position;
    return d && isValidDraft(d) ? planOf(d) : null;
  }

  newDrawing(kind: Exclude<Tool, 'default' | 'position'>, p1: DrawingPoint, p2: DrawingPoint): Drawing {
    const id = this.options.createId ? this.options.createId() : crypto.randomUUID();
    const color = this.toolOptions.color;
    if (kind === 'line') {
      const symbol = this.toolOptions.symbol;
      return symbol ? { id, kind, price: p1.price, color, symbol } : { id, kind, price: p1.price, color };
    }
    if (kind === 'rectangle') return { id, kind, p1, p2, color };
    return { id, kind, rect: { p1, p2 }, fibColor: color, ...this.toolOptions.fib };
  }

  // ── ControllerHost (DOM gestures) ─────────────────────────────────────────────────────────

  region(x: number, y: number): Region | null {
    const m = this.model;
    const pane = m.pane;
    if (x < 0 || y < 0 || x > m.width || y > m.height) return null;
    if (x > pane.left + pane.width) return y <= pane.top + pane.height ? 'price-axis' : null;
    if (y > pane.top + pane.height) return 'time-axis';
    return 'pane';
  }

  tool(): ToolMachine {
    return this.active;
  }

  setCrosshair(p: { x: number; y: number } | null): void {
    const m = this.model;
    const prev = m.crosshair;
    if (prev === p || (prev && p && prev.x === p.x && prev.y === p.y)) return;
    m.crosshair = p;
    this.invalidate(InvalidationLevel.cursor);
    if (!this.events.has('crosshair')) return;
    if (!p || m.store.length === 0) {
      this.events.emit('crosshair', null);
      return;
    }
    const index = Math.round(m.timeScale.xToIndex(p.x));
    this.events.emit('crosshair', {
      index,
      time: m.timeIndex.indexToTime(index),
      price: m.roundPrice(m.priceScale.yToPrice(p.y)),
      candle: m.store.candleAt(index),
      x: p.x,
      y: p.y,
    });
  }

  panBy(dx: number, dy: number): void {
    const m = this.model;
    m.timeScale.panBy(dx, m.store.length);
    if (!m.priceScale.autoScale && dy !== 0) m.priceScale.panBy(dy);
    this.invalidate(InvalidationLevel.full);
  }

  zoomAt(x: number, factor: number): void {
    this.model.timeScale.zoomAt(x, factor, this.model.store.length);
    this.invalidate(InvalidationLevel.full);
  }

  scalePrice(factor: number): void {
    this.model.priceScale.scaleBy(factor);
    this.invalidate(InvalidationLevel.full);
  }

  autoScalePrice(): void {
    this.model.priceScale.autoScale = true;
    this.invalidate(InvalidationLevel.full);
  }

  resetTimeScale(): void {
    this.resetView();
  }

  cancel(): void {
    const wasCreating = this.active !== this.tools.default;
    this.active.cancel();
    if (wasCreating) {
      this.active = this.tools.default;
      this.events.emit('toolChanged', { tool: 'default' });
    }
    this.invalidate(InvalidationLevel.light);
  }

  deleteSelected(): void {
    const id = this.model.selectedId;
    if (!id) return;
    const drawing = this.model.drawings.find((d) => d.id === id);
    this.select(null);
    if (!drawing) return;
    this.model.drawings = this.model.drawings.filter((d) => d.id !== id);
    this.events.emit('drawingDeleted', { id, drawing });
    this.invalidate(InvalidationLevel.light);
  }

  paneWidth(): number {
    return this.model.pane.width;
  }
}
