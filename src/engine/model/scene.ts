import { withAlpha } from '../core/colors';
import { InvalidationLevel } from '../core/invalidate-mask';
import { utilOf } from '../drawings/registry';
import type { DrawingOutput } from '../drawings/types';
import { buildIndicatorLines } from '../indicators/indicator-view';
import type { TimeLine } from '../types';
import { MIN_PRICE_AXIS_WIDTH, TIME_AXIS_HEIGHT, VOLUME_BAND, type ChartModel } from './chart-model';
import { showsHistoryLoading } from './history-prefetch';
import { buildColumns } from './lod';
import { formatPrice, formatVolume } from './price-format';
import { drawPriceLines, parseLineColor } from './price-lines';
import type { ResolvedTheme } from './theme';
import { formatCrosshairTime, formatTimeTick, timeTicks } from './time-format';
import { TimeAxisLabelGuard } from './view/axis-label-guard';
import { boxLabel, LABEL_PAD_X, priceAxisLabel } from './view/labels';
import { LineList } from './view/line-list';
import { drawPosition } from './view/position-view';
import { PrimitiveList, TextList, type MeasureText } from './view/primitive-list';

/** Floats per candle instance: wickLeft bodyWidth yOpen yHigh yLow yClose yVolumeTop up (device px). */
export const SERIES_STRIDE = 8;

/** The text of a price line's label (the panel's tests compare theirs with it). */
export { priceLineLabel } from './price-lines';

export interface SeriesView {
  data: Float32Array;
  count: number;
  version: number;
  wickWidth: number;
  /** Device-px y of the volume baseline (pane bottom). */
  volumeBottom: number;
  /** Bars per drawn column (1 when every bar is drawn). */
  barsPerColumn: number;
}

/** View data per layer, bottom to top. The renderer draws these and nothing else. */
export class Scene {
  readonly grid = new PrimitiveList();
  readonly series: SeriesView = { data: new Float32Array(SERIES_STRIDE * 4096), count: 0, version: 0, wickWidth: 1, volumeBottom: 0, barsPerColumn: 1 };
  /** Indicator polylines, drawn over the candles. */
  readonly indicatorLines = new LineList();
  readonly drawings = new PrimitiveList();
  readonly drawingTexts = new TextList();
  readonly lines = new PrimitiveList();
  readonly lineTexts = new TextList();
  readonly axes = new PrimitiveList();
  readonly axisTexts = new TextList();
  readonly marks = new PrimitiveList();
  readonly markTexts = new TextList();
  readonly overlay = new PrimitiveList();
  readonly overlayTexts = new TextList();
  /** The scales the grid and axes were last built for. */
  axesKey = '';
  /** Time-axis labels (ticks in axisTexts, time-line labels in marks) the crosshair's time label may hide. */
  readonly timeLabels = new TimeAxisLabelGuard();
}

export interface SceneEnv {
  theme: ResolvedTheme;
  measure: MeasureText;
  /** Unix ms. */
  now: number;
  timeOffsetSeconds: number;
  /** Text without candles (default "No data"; "" for none). */
  emptyText?: string;
}

/**
 * Model → view data. `full` recomputes series, grid and axes; `light` drawings, lines and axis
 * marks; `cursor` only the crosshair overlay — so a pointer move touches one small list.
 */
export function buildScene(model: ChartModel, scene: Scene, level: InvalidationLevel, env: SceneEnv): void {
  if (level >= InvalidationLevel.full) {
    updateAxisWidth(model, env.measure);
    buildSeries(model, scene);
    // A live tick usually leaves both scales as they were: then grid and axis labels stay as built.
    const key = axesKey(model, env);
    if (key !== scene.axesKey) {
      scene.axesKey = key;
      buildGridAndAxes(model, scene, env);
    }
  }
  if (level >= InvalidationLevel.light) {
    buildDrawingsAndLines(model, scene, env);
  }
  if (level >= InvalidationLevel.cursor) {
    buildOverlay(model, scene, env);
  }
}

function updateAxisWidth(model: ChartModel, measure: MeasureText): void {
  const ps = model.priceScale;
  const widest = Math.max(measure(model.formatPrice(ps.max)), measure(model.formatPrice(ps.min)), measure('00:00:00'));
  const wanted = Math.max(MIN_PRICE_AXIS_WIDTH, Math.ceil(widest + LABEL_PAD_X * 2 + 8));
  // Hysteresis: a label one digit shorter for a moment must not shift the whole chart.
  if (wanted > model.priceAxisWidth || wanted < model.priceAxisWidth - 12) {
    model.priceAxisWidth = wanted;
    model.applyLayout();
  }
}

function axesKey(model: ChartModel, env: SceneEnv): string {
  const { timeScale: ts, priceScale: ps, instrument: i } = model;
  return [ts.from, ts.to, model.width, model.height, model.dpr, model.priceAxisWidth, ps.min, ps.max, i.tickSize, i.precision, model.timeIndex.interval, model.store.revision, model.store.length > 0, env.timeOffsetSeconds].join();
}

function buildSeries(model: ChartModel, scene: Scene): void {
  const { timeScale: ts, priceScale: ps, columns, dpr } = model;
  buildColumns(model.store, model.pyramid, ts.from, ts.to, ts.spacing * dpr, dpr, columns);
  if (columns.count > 0) ps.fit(columns.minLow, columns.maxHigh);
  const s = scene.series;
  const n = columns.count;
  if (s.data.length < n * SERIES_STRIDE) s.data = new Float32Array(n * SERIES_STRIDE * 2);
  const pane = model.pane;
  const volBottom = Math.round((pane.top + pane.height) * dpr);
  const volHeight = pane.height * VOLUME_BAND * dpr;
  const volScale = columns.maxVolume > 0 ? volHeight / columns.maxVolume : 0;
  // priceToY inlined: y = top + height − (p − min)·k, in device px.
  const k = ps.pxPerPrice * dpr;
  const y0 = (ps.paneTop + ps.paneHeight) * dpr + ps.min * k;
  const d = s.data;
  for (let c = 0, o = 0; c < n; c++, o += SERIES_STRIDE) {
    const open = columns.open[c];
    const close = columns.close[c];
    d[o] = columns.x[c];
    d[o + 1] = columns.bodyWidth[c];
    d[o + 2] = Math.round(y0 - open * k);
    d[o + 3] = Math.round(y0 - columns.high[c] * k);
    d[o + 4] = Math.round(y0 - columns.low[c] * k);
    d[o + 5] = Math.round(y0 - close * k);
    d[o + 6] = volBottom - Math.max(1, Math.round(columns.volume[c] * volScale));
    d[o + 7] = close >= open ? 1 : 0;
  }
  s.count = n;
  s.wickWidth = columns.wickWidth;
  s.volumeBottom = volBottom;
  s.barsPerColumn = columns.barsPerColumn;
  s.version++;
  buildIndicatorLines(model.indicators, model.store, columns, ps, dpr, scene.indicatorLines);
}

function buildGridAndAxes(model: ChartModel, scene: Scene, env: SceneEnv): void {
  const { theme } = env;
  const pane = model.pane;
  const { timeScale: ts, timeIndex: ti, priceScale: ps } = model;
  const grid = scene.grid;
  const axes = scene.axes;
  const texts = scene.axisTexts;
  grid.begin(model.dpr);
  axes.begin(model.dpr);
  texts.begin();
  scene.timeLabels.clear(texts);
  const axisLeft = pane.left + pane.width;
  const axisBottom = pane.top + pane.height;
  axes.rect(axisLeft, 0, model.width - axisLeft, model.height, theme.axisBackground);
  axes.rect(0, axisBottom, model.width, model.height - axisBottom, theme.axisBackground);
  axes.vline(axisLeft, 0, model.height, 1, theme.axisBorder);
  axes.hline(0, model.width, axisBottom, 1, theme.axisBorder);

  for (const p of ps.ticks(model.instrument.tickSize)) {
    const y = ps.priceToY(p);
    if (y < pane.top + 6 || y > axisBottom - 6) continue;
    grid.hline(pane.left, axisLeft, y, 1, theme.grid);
    texts.add(formatPrice(p, model.instrument.precision), axisLeft + LABEL_PAD_X, y, theme.text, 0, 0.5);
  }

  if (model.store.length > 0) {
    const off = env.timeOffsetSeconds;
    const t0 = ti.indexToTime(Math.max(ts.from, -1e6)) + off;
    const t1 = ti.indexToTime(ts.to) + off;
    let lastRight = -Infinity;
    for (const t of timeTicks(t0, t1, pane.width, ti.interval)) {
      const x = ts.indexToX(ti.timeToIndex(t - off));
      if (x < pane.left || x > axisLeft) continue;
      const { text, major } = formatTimeTick(t);
      const w = env.measure(text);
      // Skip a label that would collide with the previous one (uneven bar gaps).
      if (x - w / 2 < lastRight + 8) continue;
      lastRight = x + w / 2;
      grid.vline(x, pane.top, axisBottom, 1, theme.grid);
      const slot = texts.count;
      texts.add(text, x, axisBottom + TIME_AXIS_HEIGHT / 2, major ? theme.crosshairLabelText : theme.text, 0.5, 0.5);
      scene.timeLabels.add({ left: x - w / 2, right: x + w / 2 }, texts, slot);
    }
  }
}

function buildDrawingsAndLines(model: ChartModel, scene: Scene, env: SceneEnv): void {
  const { theme } = env;
  const pane = model.pane;
  const axisLeft = pane.left + pane.width;
  const axisWidth = model.width - axisLeft;
  scene.drawings.begin(model.dpr);
  scene.drawingTexts.begin();
  scene.lines.begin(model.dpr);
  scene.lineTexts.begin();
  scene.marks.begin(model.dpr);
  scene.markTexts.begin();
  scene.timeLabels.clear(scene.markTexts);
  model.lineCloseBoxes = [];
  model.offscreenLines = [];

  const ctx = model.drawingContext();
  const out: DrawingOutput = {
    prims: scene.drawings,
    texts: scene.drawingTexts,
    axisPrims: scene.marks,
    axisTexts: scene.markTexts,
    theme,
    measure: env.measure,
    axisLeft,
    axisWidth,
  };
  for (const d of model.visibleDrawings()) {
    const selected = d.id === model.selectedId || d.id === model.previewDrawing?.id;
    utilOf(d).draw(d, ctx, { selected, hovered: d.id === model.hoveredId }, out);
  }
  drawPosition(model.position, model.positionOptions, ctx, out);

  for (const line of model.timeLines) drawTimeLine(model, scene, env, line);
  drawPriceLines(model, scene, env, axisLeft, axisWidth);

  const emptyText = env.emptyText ?? 'No data';
  if (model.store.length === 0) {
    if (emptyText) scene.markTexts.add(emptyText, pane.left + pane.width / 2, pane.top + pane.height / 2, theme.text, 0.5, 0.5);
  } else if (showsHistoryLoading({ from: model.timeScale.from, to: model.timeScale.to, loading: model.historyLoading })) {
    // The oldest bar's side gets an accent bar and a pill while older pages load.
    scene.marks.rect(pane.left, pane.top, 3, pane.height, withAlpha(theme.buy, 0.8));
    boxLabel(scene.marks, scene.markTexts, env.measure, pane.left + 10, pane.top + pane.height / 2, 'Loading history…', theme.crosshairLabel, theme.crosshairLabelText, 0, 0.5);
  }
}

function drawTimeLine(model: ChartModel, scene: Scene, env: SceneEnv, line: TimeLine): void {
  const pane = model.pane;
  const x = model.timeScale.indexToX(model.timeIndex.timeToIndex(line.time));
  if (x < pane.left || x > pane.left + pane.width) return;
  const color = line.color ? parseLineColor(line.color, env) : env.theme.alert;
  const bottom = pane.top + pane.height;
  scene.lines.vline(x, pane.top, bottom, 1, color, 6, 4);
  const text = line.label ?? formatCrosshairTime(line.time + env.timeOffsetSeconds, model.timeIndex.interval);
  const prim = scene.marks.count;
  const slot = scene.markTexts.count;
  const box = boxLabel(scene.marks, scene.markTexts, env.measure, x, bottom + 2, text, color, 0xffffffff, 0.5, 0);
  scene.timeLabels.add({ left: box.left, right: box.left + box.width }, scene.markTexts, slot, { prims: scene.marks, prim });
}

function buildOverlay(model: ChartModel, scene: Scene, env: SceneEnv): void {
  const { theme } = env;
  const o = scene.overlay;
  const t = scene.overlayTexts;
  o.begin(model.dpr);
  t.begin();
  const pane = model.pane;
  const n = model.store.length;
  const ch = model.crosshair;
  let legendIndex = n - 1;
  let timeLabel: { left: number; right: number } | null = null;
  if (ch && n > 0 && ch.x >= pane.left && ch.x <= pane.left + pane.width && ch.y >= pane.top && ch.y <= pane.top + pane.height) {
    const index = Math.round(model.timeScale.xToIndex(ch.x));
    const x = model.timeScale.indexToX(index);
    const axisLeft = pane.left + pane.width;
    const axisBottom = pane.top + pane.height;
    o.vline(x, pane.top, axisBottom, 1, theme.crosshair, 4, 4);
    o.hline(pane.left, axisLeft, ch.y, 1, theme.crosshair, 4, 4);
    const price = model.roundPrice(model.priceScale.yToPrice(ch.y));
    priceAxisLabel(o, t, axisLeft, model.width - axisLeft, ch.y, model.formatPrice(price), theme.crosshairLabel, theme.crosshairLabelText);
    const time = model.timeIndex.indexToTime(index) + env.timeOffsetSeconds;
    const label = formatCrosshairTime(time, model.timeIndex.interval);
    const w = env.measure(label) + LABEL_PAD_X * 2;
    const cx = Math.max(w / 2, Math.min(axisLeft - w / 2, x));
    const box = boxLabel(o, t, env.measure, cx, axisBottom + 2, label, theme.crosshairLabel, theme.crosshairLabelText, 0.5, 0);
    timeLabel = { left: box.left, right: box.left + box.width };
    if (index >= 0 && index < n) legendIndex = index;
  }
  // Axis labels the crosshair's time label would overlap are hidden while it is there.
  scene.timeLabels.apply(timeLabel);
  const c = model.store.candleAt(legendIndex);
  if (c) {
    const color = c.close >= c.open ? theme.up : theme.down;
    const p = (v: number) => model.formatPrice(v);
    t.add(`O ${p(c.open)}  H ${p(c.high)}  L ${p(c.low)}  C ${p(c.close)}  V ${formatVolume(c.volume)}`, pane.left + 8, pane.top + 8, color, 0, 0);
  }
}
