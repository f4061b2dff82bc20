import { withAlpha } from '../../core/colors';
import { distToHSpan, drawHandle } from '../geometry';
import type { RectangleDrawing } from '../records';
import { HANDLE_RADIUS, type DrawingContext, type DrawingUtil, type Handle } from '../types';

/**
 * A time/price box. Its four corners are handles named after the record fields they own:
 * `p1`, `p2`, `p1p2` (p1's time, p2's price) and `p2p1` (p2's time, p1's price).
 */
export const rectangleUtil: DrawingUtil<RectangleDrawing> = {
  kind: 'rectangle',

  handles(d, ctx) {
    return rectHandles(d.p1, d.p2, ctx);
  },

  hitBody(d, ctx, x, y, margin) {
    const x1 = ctx.timeToX(d.p1.time);
    const x2 = ctx.timeToX(d.p2.time);
    const y1 = ctx.priceToY(d.p1.price);
    const y2 = ctx.priceToY(d.p2.price);
    const edge = Math.min(
      distToHSpan(x, y, x1, x2, y1),
      distToHSpan(x, y, x1, x2, y2),
      distToHSpan(y, x, y1, y2, x1),
      distToHSpan(y, x, y1, y2, x2),
    );
    if (edge <= margin) return { part: 'line', distance: edge };
    const inside = x >= Math.min(x1, x2) && x <= Math.max(x1, x2) && y >= Math.min(y1, y2) && y <= Math.max(y1, y2);
    return inside ? { part: 'area', distance: 0 } : null;
  },

  dragHandle(d, handleId, point) {
    switch (handleId) {
      case 'p1':
        return { p1: point };
      case 'p2':
        return { p2: point };
      case 'p1p2':
        return { p1: { time: point.time, price: d.p1.price }, p2: { time: d.p2.time, price: point.price } };
      case 'p2p1':
        return { p2: { time: point.time, price: d.p2.price }, p1: { time: d.p1.time, price: point.price } };
      default:
        return {};
    }
  },

  translate(d, dx, dy, ctx) {
    return {
      p1: { time: ctx.shiftTime(d.p1.time, dx), price: ctx.roundPrice(ctx.yToPrice(ctx.priceToY(d.p1.price) + dy)) },
      p2: { time: ctx.shiftTime(d.p2.time, dx), price: ctx.roundPrice(ctx.yToPrice(ctx.priceToY(d.p2.price) + dy)) },
    };
  },

  draw(d, ctx, state, out) {
    const color = out.theme.drawing[d.color];
    const x1 = ctx.timeToX(d.p1.time);
    const x2 = ctx.timeToX(d.p2.time);
    const y1 = ctx.priceToY(d.p1.price);
    const y2 = ctx.priceToY(d.p2.price);
    const l = Math.min(x1, x2);
    const t = Math.min(y1, y2);
    const w = Math.abs(x2 - x1);
    const h = Math.abs(y2 - y1);
    out.prims.rect(l, t, w, h, withAlpha(color, state.hovered || state.selected ? 0.24 : 0.16));
    out.prims.strokeRect(l, t, w, h, state.hovered || state.selected ? 2 : 1, color);
    if (state.selected) {
      for (const hd of rectangleUtil.handles(d, ctx)) drawHandle(out.prims, hd.x, hd.y, out.theme.background, color, HANDLE_RADIUS);
    }
  },
};

function rectHandles(
  p1: { time: number; price: number },
  p2: { time: number; price: number },
  ctx: DrawingContext,
): Handle[] {
  const x1 = ctx.timeToX(p1.time);
  const x2 = ctx.timeToX(p2.time);
  const y1 = ctx.priceToY(p1.price);
  const y2 = ctx.priceToY(p2.price);
  return [
    { id: 'p1', x: x1, y: y1 },
    { id: 'p2', x: x2, y: y2 },
    { id: 'p1p2', x: x1, y: y2 },
    { id: 'p2p1', x: x2, y: y1 },
  ];
}
