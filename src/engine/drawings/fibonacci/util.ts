import { withAlpha } from '../../core/colors';
import { distToHSpan, distToSegment, drawHandle } from '../geometry';
import type { FibRetracementDrawing } from '../records';
import { HANDLE_RADIUS, type DrawingUtil } from '../types';
import { fibLevels, formatRatio } from './levels';

/** Fibonacci retracement between rect.p1 and rect.p2; levels per `fibLevels`. Handles: p1, p2. */
export const fibonacciUtil: DrawingUtil<FibRetracementDrawing> = {
  kind: 'fib-retracement',

  handles(d, ctx) {
    return [
      { id: 'p1', x: ctx.timeToX(d.rect.p1.time), y: ctx.priceToY(d.rect.p1.price) },
      { id: 'p2', x: ctx.timeToX(d.rect.p2.time), y: ctx.priceToY(d.rect.p2.price) },
    ];
  },

  hitBody(d, ctx, x, y, margin) {
    const x1 = ctx.timeToX(d.rect.p1.time);
    const x2 = ctx.timeToX(d.rect.p2.time);
    const y1 = ctx.priceToY(d.rect.p1.price);
    const y2 = ctx.priceToY(d.rect.p2.price);
    let best = distToSegment(x, y, x1, y1, x2, y2);
    for (const lv of fibLevels(d)) best = Math.min(best, distToHSpan(x, y, x1, x2, ctx.priceToY(lv.price)));
    if (best <= margin) return { part: 'line', distance: best };
    const inside = x >= Math.min(x1, x2) && x <= Math.max(x1, x2) && y >= Math.min(y1, y2) && y <= Math.max(y1, y2);
    return inside ? { part: 'area', distance: 0 } : null;
  },

  dragHandle(d, handleId, point) {
    if (handleId === 'p1') return { rect: { p1: point, p2: d.rect.p2 } };
    if (handleId === 'p2') return { rect: { p1: d.rect.p1, p2: point } };
    return {};
  },

  translate(d, dx, dy, ctx) {
    const move = (p: { time: number; price: number }) => ({
      time: ctx.shiftTime(p.time, dx),
      price: ctx.roundPrice(ctx.yToPrice(ctx.priceToY(p.price) + dy)),
    });
    return { rect: { p1: move(d.rect.p1), p2: move(d.rect.p2) } };
  },

  draw(d, ctx, state, out) {
    const color = out.theme.drawing[d.fibColor];
    const x1 = ctx.timeToX(d.rect.p1.time);
    const x2 = ctx.timeToX(d.rect.p2.time);
    const left = Math.min(x1, x2);
    const right = Math.max(x1, x2);
    const emphasis = state.hovered || state.selected;
    const y0 = ctx.priceToY(d.rect.p2.price);
    const y1 = ctx.priceToY(d.rect.p1.price);
    // The retraced move (ratios 0…1) gets a light fill so the zone reads at a glance.
    out.prims.rect(left, Math.min(y0, y1), right - left, Math.abs(y1 - y0), withAlpha(color, emphasis ? 0.12 : 0.08));
    for (const lv of fibLevels(d)) {
      const y = ctx.priceToY(lv.price);
      out.prims.hline(left, right, y, lv.main ? 2 : 1, lv.custom ? withAlpha(color, 0.75) : color, lv.custom ? 4 : 0, lv.custom ? 3 : 0);
      out.texts.add(`${formatRatio(lv.ratio)} (${ctx.formatPrice(lv.price)})`, left + 4, y - 2, color, 0, 1);
    }
    out.prims.segment(x1, y1, x2, y0, 1, withAlpha(color, 0.8), 5, 4);
    if (state.selected || state.hovered) {
      for (const h of fibonacciUtil.handles(d, ctx)) {
        drawHandle(out.prims, h.x, h.y, state.selected ? out.theme.background : withAlpha(color, 0.25), color, HANDLE_RADIUS);
      }
    }
  },
};
