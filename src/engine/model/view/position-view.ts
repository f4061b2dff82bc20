import { withAlpha, type Rgba } from '../../core/colors';
import { drawHandle } from '../../drawings/geometry';
import { HANDLE_RADIUS, type DrawingContext, type DrawingOutput } from '../../drawings/types';
import { isValidDraft, planOf, positionLeft, type PositionDraft } from '../../interaction/position-tool';
import type { PositionLabels, PositionToolOptions } from '../../types';
import { boxLabel, priceAxisLabel } from './labels';

const WHITE = 0xffffffff;

/** "2R", "1.5R": a target's reward over the risk, for the default label. */
function rText(entry: number, stop: number, target: number): string {
  const r = Math.abs(target - entry) / Math.abs(entry - stop);
  return `${Number(r.toFixed(2))}R`;
}

function defaultLabels(d: PositionDraft & { entry: number }, ctx: DrawingContext): Required<PositionLabels> {
  return {
    stop: `Stop ${ctx.formatPrice(d.stop)}`,
    entry: `Entry ${ctx.formatPrice(d.entry)}`,
    targets: d.targets.map((t) => `${rText(d.entry, d.stop, t)} ${ctx.formatPrice(t)}`),
  };
}

/**
 * The position tool's picture: the stop zone (red) between entry and stop and the target zone (green)
 * from the entry to the farthest target, from the clicked bar to the right edge; a line, a label and a
 * handle per level, and the levels' prices on the axis. Labels are the app's when it gives them.
 */
export function drawPosition(d: PositionDraft | null, options: PositionToolOptions, ctx: DrawingContext, out: DrawingOutput): void {
  if (!d) return;
  const { theme, prims } = out;
  const left = positionLeft(d, ctx);
  const right = ctx.pane.left + ctx.pane.width;
  const level = (price: number, color: Rgba, text: string, width: number) => {
    const y = ctx.priceToY(price);
    prims.hline(left, right, y, width, color);
    boxLabel(prims, out.texts, out.measure, left + HANDLE_RADIUS + 6, y, text, color, WHITE, 0, 0.5);
    drawHandle(prims, left, y, theme.background, color, HANDLE_RADIUS);
    priceAxisLabel(out.axisPrims, out.axisTexts, out.axisLeft, out.axisWidth, y, ctx.formatPrice(price), color, WHITE);
  };
  if (!isValidDraft(d)) {
    level(d.stop, theme.down, `Stop ${ctx.formatPrice(d.stop)}`, 1);
    return;
  }
  const labels = { ...defaultLabels(d, ctx), ...options.labels?.(planOf(d)) };
  const yEntry = ctx.priceToY(d.entry);
  const yStop = ctx.priceToY(d.stop);
  prims.rect(left, Math.min(yEntry, yStop), right - left, Math.abs(yStop - yEntry), withAlpha(theme.down, 0.18));
  if (d.targets.length) {
    const far = d.targets.reduce((a, t) => (Math.abs(t - d.entry) > Math.abs(a - d.entry) ? t : a), d.targets[0]);
    const yFar = ctx.priceToY(far);
    prims.rect(left, Math.min(yEntry, yFar), right - left, Math.abs(yFar - yEntry), withAlpha(theme.up, 0.16));
  }
  d.targets.forEach((t, i) => level(t, theme.up, labels.targets[i] ?? rText(d.entry, d.stop, t), 1));
  level(d.stop, theme.down, labels.stop, 1);
  level(d.entry, theme.selection, labels.entry, 2);
}
