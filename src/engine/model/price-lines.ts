import { parseColor, type Rgba } from '../core/colors';
import type { LineEdge, OffscreenLine, PriceLine } from '../types';
import type { ChartModel } from './chart-model';
import { lineEdge, markerOrder, markerTop } from './offscreen-lines';
import { formatSigned } from './price-format';
import type { Scene, SceneEnv } from './scene';
import type { ResolvedTheme } from './theme';
import { formatCountdown } from './time-format';
import { stackLabels, type StackItem } from './view/label-stack';
import { boxLabel, LABEL_HEIGHT, LABEL_PAD_X, priceAxisLabel } from './view/labels';

const WHITE = 0xffffffff;
/** The marker's arrow: a triangle this wide and tall (CSS px), then this much space before the label. */
const ARROW_WIDTH = 9;
const ARROW_HEIGHT = 5;
const ARROW_SPACE = 4;
/** Space between a marker and the price axis (CSS px). */
const MARKER_RIGHT = 6;

/** A price line with its price (a dragged one's preview), screen y and colour. */
interface ShownLine {
  line: PriceLine;
  price: number;
  y: number;
  color: Rgba;
}

/** The last bar's price label on the axis (with the countdown under it while the bar is open). */
interface LastPriceLabel {
  close: number;
  y: number;
  top: number;
  height: number;
  color: Rgba;
  /** Seconds until the bar closes (≤ 0: no countdown). */
  remaining: number;
}

function lineColor(theme: ResolvedTheme, line: PriceLine): Rgba {
  if (line.kind === 'alert') return theme.alert;
  if (line.role === 'stop') return theme.down;
  if (line.role === 'take-profit') return theme.up;
  if (line.role === 'liquidation') return theme.liquidation;
  if (line.role === 'break-even') return theme.breakEven;
  return line.side === 'sell' ? theme.sell : theme.buy;
}

/** A line's colour: a theme drawing colour name or any CSS colour when it names one, else by kind and role. */
export function parseLineColor(c: string, env: SceneEnv): Rgba {
  const named = env.theme.drawing[c as keyof ResolvedTheme['drawing']];
  return named ?? parseColor(c);
}

/** "BUY 0.5 · +12.30", "SL SELL 0.5", "TP SELL 0.5 · +40.00", "Liq. 0.25", "BE", "Alert". */
export function priceLineLabel(line: PriceLine): string {
  if (line.label !== undefined) return line.label;
  if (line.kind === 'alert') return 'Alert';
  const prefix = { stop: 'SL', 'take-profit': 'TP', liquidation: 'Liq.', 'break-even': 'BE', entry: '' }[line.role ?? 'entry'];
  const side = line.side ? line.side.toUpperCase() : prefix ? '' : line.kind === 'position' ? 'POS' : 'ORDER';
  const parts = [prefix, side, line.size !== undefined ? String(line.size) : ''].filter(Boolean);
  const pnl = line.pnl !== undefined ? ` · ${formatSigned(line.pnl, line.pnlDecimals ?? 2)}${line.pnlUnit ? ` ${line.pnlUnit}` : ''}` : '';
  return `${parts.join(' ')}${pnl}${line.note ? ` · ${line.note}` : ''}`;
}

/**
 * The app's price lines and the last price. A line inside the plot is drawn across it with its label
 * at the left and its price on the axis; labels that would overlap are stacked (at the left among
 * themselves, on the axis also clear of the last-price label, which stays where it is). A line
 * outside the visible price range becomes a marker pinned to the top or bottom edge — arrow, label
 * and price — whose box a click hits (`model.offscreenLines`).
 */
export function drawPriceLines(model: ChartModel, scene: Scene, env: SceneEnv, axisLeft: number, axisWidth: number): void {
  const pane = model.pane;
  const plotTop = pane.top;
  const plotBottom = pane.top + pane.height;
  const shown: ShownLine[] = [];
  const pinned: Record<LineEdge, ShownLine[]> = { above: [], below: [] };
  for (const line of model.lines) {
    const price = model.linePrice(line);
    const y = model.priceScale.priceToY(price);
    const color = line.color ? parseLineColor(line.color, env) : lineColor(env.theme, line);
    const edge = lineEdge(y, plotTop, plotBottom);
    (edge ? pinned[edge] : shown).push({ line, price, y, color });
  }
  const last = lastPriceLabel(model, env);
  const bounds = { top: plotTop, bottom: plotBottom };
  const items: StackItem[] = shown.map((s) => ({ y: s.y, height: LABEL_HEIGHT }));
  const labelYs = stackLabels(items, bounds);
  // The countdown hangs below the price: the label sorts by the price's y, not by its box's centre.
  if (last) items.push({ y: last.top + last.height / 2, height: last.height, fixed: true, at: last.y });
  const axisYs = stackLabels(items, bounds);
  shown.forEach((s, i) => drawPriceLine(model, scene, env, s, labelYs[i], axisYs[i], axisLeft, axisWidth));
  if (last) drawLastPrice(model, scene, last, axisLeft, axisWidth);
  model.offscreenLines = [...drawMarkers(model, scene, env, pinned.above, 'above', axisLeft), ...drawMarkers(model, scene, env, pinned.below, 'below', axisLeft)];
}

function drawPriceLine(model: ChartModel, scene: Scene, env: SceneEnv, s: ShownLine, labelY: number, axisY: number, axisLeft: number, axisWidth: number): void {
  const { line, color } = s;
  const pane = model.pane;
  const solid = line.kind === 'position' && (line.role ?? 'entry') === 'entry';
  const emphasis = model.hoveredLineId === line.id || model.linePreview?.id === line.id;
  scene.lines.hline(pane.left, axisLeft, s.y, emphasis ? 2 : 1, color, solid ? 0 : 6, solid ? 0 : 4);
  const box = boxLabel(scene.lines, scene.lineTexts, env.measure, pane.left + 8, labelY, priceLineLabel(line), color, WHITE, 0, 0.5);
  if (line.closable) {
    // The ✕ sits right of the label, a square of the label's height, in the line's colour.
    const left = box.left + box.width + 2;
    const size = box.height;
    const inset = 5;
    scene.lines.rect(left, box.top, size, size, color);
    scene.lines.segment(left + inset, box.top + inset, left + size - inset, box.top + size - inset, 1.5, WHITE);
    scene.lines.segment(left + inset, box.top + size - inset, left + size - inset, box.top + inset, 1.5, WHITE);
    model.lineCloseBoxes.push({ id: line.id, left, top: box.top, width: box.height, height: box.height });
  }
  priceAxisLabel(scene.marks, scene.markTexts, axisLeft, axisWidth, axisY, model.formatPrice(s.price), color, WHITE);
}

/** The last-price label when the last close is inside the plot (null otherwise, or without bars). */
function lastPriceLabel(model: ChartModel, env: SceneEnv): LastPriceLabel | null {
  const n = model.store.length;
  const last = n > 0 ? model.store.candleAt(n - 1) : null;
  if (!last) return null;
  const pane = model.pane;
  const y = model.priceScale.priceToY(last.close);
  if (y < pane.top || y > pane.top + pane.height) return null;
  const remaining = last.time + model.timeIndex.interval - env.now / 1000;
  const height = remaining > 0 ? LABEL_HEIGHT * 2 - 4 : LABEL_HEIGHT;
  const color = last.close >= last.open ? env.theme.up : env.theme.down;
  return { close: last.close, y, top: Math.round(y - LABEL_HEIGHT / 2), height, color, remaining };
}

function drawLastPrice(model: ChartModel, scene: Scene, last: LastPriceLabel, axisLeft: number, axisWidth: number): void {
  const pane = model.pane;
  scene.lines.hline(pane.left, axisLeft, last.y, 1, last.color, 2, 2);
  scene.marks.rect(axisLeft, last.top, axisWidth, last.height, last.color);
  scene.markTexts.add(model.formatPrice(last.close), axisLeft + LABEL_PAD_X, last.top + LABEL_HEIGHT / 2, WHITE, 0, 0.5);
  if (last.remaining > 0) scene.markTexts.add(formatCountdown(last.remaining), axisLeft + LABEL_PAD_X, last.top + LABEL_HEIGHT + 5, WHITE, 0, 0.5);
}

function drawMarkers(model: ChartModel, scene: Scene, env: SceneEnv, lines: ShownLine[], edge: LineEdge, axisLeft: number): OffscreenLine[] {
  return markerOrder(lines, edge).map((s, slot) => drawMarker(model, scene, env, s, edge, slot, axisLeft));
}

/**
 * A line beyond the plot's edge, pinned there right-aligned against the price axis (clear of the
 * legend at the top left): [▲ label | price], the arrow pointing where the line is, the label part in
 * the line's colour and the price on the axis background in it.
 */
function drawMarker(model: ChartModel, scene: Scene, env: SceneEnv, s: ShownLine, edge: LineEdge, slot: number, axisLeft: number): OffscreenLine {
  const pane = model.pane;
  const label = priceLineLabel(s.line);
  const priceText = model.formatPrice(s.price);
  const labelWidth = LABEL_PAD_X + ARROW_WIDTH + ARROW_SPACE + Math.ceil(env.measure(label)) + LABEL_PAD_X;
  const priceWidth = Math.ceil(env.measure(priceText)) + LABEL_PAD_X * 2;
  const width = labelWidth + priceWidth;
  const left = Math.max(pane.left, Math.round(axisLeft - MARKER_RIGHT - width));
  const top = Math.round(markerTop(edge, slot, LABEL_HEIGHT, pane.top, pane.top + pane.height));
  const mid = top + LABEL_HEIGHT / 2;
  scene.lines.rect(left, top, width, LABEL_HEIGHT, s.color);
  scene.lines.rect(left + labelWidth, top + 1, priceWidth - 1, LABEL_HEIGHT - 2, env.theme.axisBackground);
  arrow(scene, left + LABEL_PAD_X, top + Math.ceil((LABEL_HEIGHT - ARROW_HEIGHT) / 2), edge);
  scene.lineTexts.add(label, left + LABEL_PAD_X + ARROW_WIDTH + ARROW_SPACE, mid, WHITE, 0, 0.5);
  scene.lineTexts.add(priceText, left + labelWidth + LABEL_PAD_X, mid, s.color, 0, 0.5);
  return { id: s.line.id, line: s.line, edge, box: { left, top, width, height: LABEL_HEIGHT } };
}

/** ▲ or ▼ as rows of pixels (crisp at any ratio; the bitmap font has no such glyph). */
function arrow(scene: Scene, left: number, top: number, edge: LineEdge): void {
  const rows = Math.ceil(ARROW_WIDTH / 2);
  const h = ARROW_HEIGHT / rows;
  for (let r = 0; r < rows; r++) {
    const w = 1 + 2 * r;
    const y = edge === 'above' ? top + r * h : top + (rows - 1 - r) * h;
    scene.lines.rect(left + (ARROW_WIDTH - w) / 2, y, w, h, WHITE);
  }
}
