import { ChartController } from './chart-controller';
import { InvalidateMask, InvalidationLevel } from './core/invalidate-mask';
import { onEverySecond } from './core/second-ticker';
import type { Drawing } from './drawings/records';
import { DomController } from './interaction/dom-controller';
import { buildScene, Scene } from './model/scene';
import { resolveTheme, type ResolvedTheme } from './model/theme';
import { ChartRenderer } from './render/chart-renderer';
import type { Candle, CandleColumns, ChartEvents, ChartLine, ChartOptions, Indicator, IndicatorValue, Instrument, OffscreenLine, PositionPlan, PositionToolOptions, RenderStats, Tool, ToolOptions, VisibleRange } from './types';

/**
 * The chart engine as panels, benchmarks and tests see it (DESIGN §8). Everything else in
 * `src/engine` is internal.
 */
export interface ChartEngine {
  /** Replaces all bars (new symbol or interval) and resets the view to the latest bars. */
  setCandles(candles: Candle[]): void;
  /**
   * As `setCandles`, from typed columns the engine keeps (ownership passes to it: no copy, so no work
   * per bar beyond one validating pass). Throws on columns of different lengths, non-Float64Array
   * columns, times that are not finite and strictly increasing, or a non-finite price or volume.
   */
  setCandleColumns(columns: CandleColumns): void;
  /** Older history from paging, oldest first; the view stays where it is. An empty page means "no more history". */
  prependCandles(candles: Candle[]): void;
  /** Same time as the last bar → replaces it; a later time → appends (the view follows if the last bar was in view). */
  updateLastCandle(candle: Candle): void;
  setInstrument(i: Instrument): void;
  /** Logical bar indexes (0 = oldest loaded bar), fractional allowed. */
  setVisibleRange(r: VisibleRange): void;
  getVisibleRange(): VisibleRange;
  /** The app's drawings (a snapshot; the engine never keeps more than it was given plus the edit in progress). */
  setDrawings(d: Drawing[]): void;
  setTool(t: Tool): void;
  /** Alert, order and position lines (horizontal, at a price) and time lines (vertical). */
  setLines(l: ChartLine[]): void;
  /**
   * Price lines outside the visible price range, as last painted: each is a marker pinned to the
   * plot's top or bottom edge (`edge`), `box` its hit box in CSS px from the chart's top-left corner.
   * The `offscreenLines` event reports every change.
   */
  getOffscreenLines(): OffscreenLine[];
  /**
   * Brings price line `id` into view with a margin (what a click on its marker does): the price
   * scale turns manual and widens on the line's side, or moves to a line far away. False when there
   * is no such line or it is already inside the plot. Double-click on the price axis returns to auto-scale.
   */
  revealLine(id: string): boolean;
  /**
   * Overlay indicators (SMA, EMA, VWAP, Bollinger bands), computed from the candles and kept up to
   * date on every `updateLastCandle` and `prependCandles`. Replaces the list; an indicator whose id
   * and parameters are unchanged keeps its values (a colour change recomputes nothing).
   */
  setIndicators(list: Indicator[]): void;
  /**
   * Each indicator's values at bar `index` (as in `crosshair` events), in `setIndicators` order:
   * `[value]`, or `[basis, upper, lower]` for Bollinger bands; NaN before enough bars. Without an
   * index, or outside the loaded bars, the last bar's values (what a legend shows without a crosshair).
   */
  getIndicatorValues(index?: number): IndicatorValue[];
  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof ChartEvents>(event: K, fn: (payload: ChartEvents[K]) => void): () => void;
  /** Paints synchronously (benchmarks, screenshots); normally the engine paints on the next animation frame. */
  renderNow(): void;
  /** Re-measures the container (automatic with the default ResizeObserver). */
  resize(): void;
  /** Removes the canvas, listeners and timers and frees the WebGL context and its GPU resources. */
  destroy(): void;
  /** What the last paint sent to the GPU: draw calls, vertices, uploads, columns, labels (benchmarks, debugging). */
  getRenderStats(): RenderStats;

  /** Colour, magnet and fib fields for new drawings. */
  setToolOptions(o: ToolOptions): void;
  getTool(): Tool;
  /** Active tool state, e.g. "select.idle", "rectangle.dragging" (for tests and tooling). */
  getInteractionState(): string;
  getSelectedDrawingId(): string | null;
  /** Selects a drawing (its handles show; Delete removes it) or clears the selection. */
  selectDrawing(id: string | null): void;
  /** Drawings as currently shown (the app's records plus an edit in progress). */
  getDrawings(): Drawing[];
  /** Double-click on the time axis does the same: default bar width, latest bars in view. */
  resetView(): void;
  /** The position tool's targets (R multiples) and the labels of its levels (the app's sizes and money). */
  setPositionOptions(o: PositionToolOptions): void;
  /** The position the position tool shows, once it has an entry (null: none). */
  getPosition(): PositionPlan | null;
}

/** Creates a chart filling `container` (Pixi v8 initialises asynchronously). */
export async function createChart(container: HTMLElement, options: ChartOptions = {}): Promise<ChartEngine> {
  const theme = resolveTheme(options.theme);
  const dpr = options.devicePixelRatio ?? (typeof window !== 'undefined' ? window.devicePixelRatio || 1 : 1);
  const { width, height } = measure(container);
  const renderer = await ChartRenderer.create(width, height, dpr, theme);
  return new Engine(container, options, theme, renderer, width, height, dpr);
}

function measure(el: HTMLElement): { width: number; height: number } {
  const r = el.getBoundingClientRect();
  return { width: Math.max(1, Math.floor(r.width)), height: Math.max(1, Math.floor(r.height)) };
}

/**
 * The façade: a ChartController (data, tools, events) plus the DOM (canvas, pointer and keyboard,
 * ResizeObserver) and the render loop — invalidations merge into one paint per animation frame.
 */
class Engine implements ChartEngine {
  private readonly controller: ChartController;
  private readonly scene = new Scene();
  private readonly mask = new InvalidateMask();
  private readonly dom: DomController;
  private readonly resizeObserver: ResizeObserver | null = null;
  private readonly stopCountdown: () => void;
  private rafId: number | null = null;
  private destroyed = false;
  private lastCountdown = '';
  /** Fires when the window moves to a screen with another pixel ratio (or the page is zoomed). */
  private dprQuery: MediaQueryList | null = null;
  private readonly onDprChange = (): void => {
    this.watchDpr();
    this.resize();
  };

  constructor(
    private readonly container: HTMLElement,
    private readonly options: ChartOptions,
    private readonly theme: ResolvedTheme,
    private readonly renderer: ChartRenderer,
    width: number,
    height: number,
    dpr: number,
  ) {
    this.controller = new ChartController(
      options,
      (level) => this.invalidate(level),
      (css) => {
        renderer.canvas.style.cursor = css;
      },
    );
    this.controller.setSize(width, height, dpr);
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
    container.appendChild(renderer.canvas);
    renderer.canvas.style.cursor = 'crosshair';
    this.dom = new DomController(container, renderer.canvas, this.controller);
    if (options.autoResize !== false && typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => this.resize());
      this.resizeObserver.observe(container);
    }
    if (options.devicePixelRatio === undefined) this.watchDpr();
    // The countdown on the last-price label changes once a second; repaint only when its text does.
    // One ticker for every chart, on the wall-clock second: exact, and all charts repaint in one frame.
    this.stopCountdown = onEverySecond(() => {
      if (this.controller.model.store.length > 0 && this.countdownText() !== this.lastCountdown) this.invalidate(InvalidationLevel.light);
    });
  }

  setCandles(candles: Candle[]): void {
    this.controller.setCandles(candles);
  }
  setCandleColumns(columns: CandleColumns): void {
    this.controller.setCandleColumns(columns);
  }
  prependCandles(candles: Candle[]): void {
    this.controller.prependCandles(candles);
  }
  updateLastCandle(candle: Candle): void {
    this.controller.updateLastCandle(candle);
  }
  setInstrument(i: Instrument): void {
    this.controller.setInstrument(i);
  }
  setVisibleRange(r: VisibleRange): void {
    this.controller.setVisibleRange(r);
  }
  getVisibleRange(): VisibleRange {
    return this.controller.getVisibleRange();
  }
  setDrawings(d: Drawing[]): void {
    this.controller.setDrawings(d);
  }
  setTool(t: Tool): void {
    this.controller.setTool(t);
  }
  setLines(l: ChartLine[]): void {
    this.controller.setLines(l);
  }
  getOffscreenLines(): OffscreenLine[] {
    return this.controller.getOffscreenLines();
  }
  revealLine(id: string): boolean {
    return this.controller.revealLine(id);
  }
  setIndicators(list: Indicator[]): void {
    this.controller.setIndicators(list);
  }
  getIndicatorValues(index?: number): IndicatorValue[] {
    return this.controller.getIndicatorValues(index);
  }
  on<K extends keyof ChartEvents>(event: K, fn: (payload: ChartEvents[K]) => void): () => void {
    return this.controller.events.on(event, fn);
  }
  setToolOptions(o: ToolOptions): void {
    this.controller.setToolOptions(o);
  }
  getTool(): Tool {
    return this.controller.getTool();
  }
  setPositionOptions(o: PositionToolOptions): void {
    this.controller.setPositionOptions(o);
  }
  getPosition(): PositionPlan | null {
    return this.controller.getPosition();
  }
  getInteractionState(): string {
    return this.controller.getInteractionState();
  }
  getSelectedDrawingId(): string | null {
    return this.controller.selectedId();
  }
  selectDrawing(id: string | null): void {
    this.controller.selectDrawing(id);
  }
  getDrawings(): Drawing[] {
    return this.controller.getDrawings();
  }
  resetView(): void {
    this.controller.resetView();
  }

  renderNow(): void {
    if (this.rafId !== null) cancelAnimationFrame(this.rafId);
    this.rafId = null;
    this.paint();
  }

  getRenderStats(): RenderStats {
    return this.renderer.stats();
  }

  resize(): void {
    if (this.destroyed) return;
    const { width, height } = measure(this.container);
    const dpr = this.options.devicePixelRatio ?? (window.devicePixelRatio || 1);
    const m = this.controller.model;
    if (width === m.width && height === m.height && dpr === m.dpr) return;
    this.renderer.resize(width, height, dpr, this.theme);
    this.controller.setSize(width, height, dpr);
    // Resizing clears the canvas; ResizeObserver runs before the browser paints, so painting now
    // (not on the next frame) avoids a blank frame while a panel is dragged wider.
    this.renderNow();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.rafId !== null) cancelAnimationFrame(this.rafId);
    this.stopCountdown();
    this.resizeObserver?.disconnect();
    this.dprQuery?.removeEventListener('change', this.onDprChange);
    this.dom.destroy();
    this.controller.events.clear();
    this.renderer.destroy();
  }

  private watchDpr(): void {
    if (typeof matchMedia === 'undefined') return;
    this.dprQuery?.removeEventListener('change', this.onDprChange);
    this.dprQuery = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.dprQuery.addEventListener('change', this.onDprChange);
  }

  private invalidate(level: InvalidationLevel): void {
    if (this.destroyed) return;
    this.mask.add(level);
    if (this.rafId === null) {
      this.rafId = requestAnimationFrame(() => {
        this.rafId = null;
        this.paint();
      });
    }
  }

  private paint(): void {
    if (this.destroyed) return;
    const level = this.mask.take();
    buildScene(this.controller.model, this.scene, level, {
      theme: this.theme,
      measure: this.renderer.measure,
      now: this.now(),
      timeOffsetSeconds: this.options.timeOffsetSeconds ?? 0,
      emptyText: this.options.emptyText,
    });
    if (level >= InvalidationLevel.light) this.lastCountdown = this.countdownText();
    this.renderer.draw(this.scene);
    if (level >= InvalidationLevel.light) this.controller.checkOffscreenLines();
    this.controller.checkHistory();
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  private countdownText(): string {
    const m = this.controller.model;
    const n = m.store.length;
    if (n === 0) return '';
    return String(Math.floor(m.store.timeAt(n - 1) + m.timeIndex.interval - this.now() / 1000));
  }
}
