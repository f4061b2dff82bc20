import { withAlpha } from '../../core/colors';
import { priceAxisLabel } from '../../model/view/labels';
import { drawHandle } from '../geometry';
import type { HorizontalLineDrawing } from '../records';
import { HANDLE_RADIUS, type DrawingUtil } from '../types';

/** A horizontal line at a price across the whole pane; one handle in the middle of the pane. */
export const horizontalLineUtil: DrawingUtil<HorizontalLineDrawing> = {
  kind: 'line',

  handles(d, ctx) {
    return [{ id: 'price', x: ctx.pane.left + ctx.pane.width / 2, y: ctx.priceToY(d.price) }];
  },

  hitBody(d, ctx, x, y, margin) {
    const ly = ctx.priceToY(d.price);
    const dist = Math.abs(y - ly);
    if (dist > margin || x < ctx.pane.left || x > ctx.pane.left + ctx.pane.width) return null;
    return { part: 'line', distance: dist };
  },

  dragHandle(_d, _handleId, point) {
    return { price: point.price };
  },

  translate(d, _dx, dy, ctx) {
    return { price: ctx.roundPrice(ctx.yToPrice(ctx.priceToY(d.price) + dy)) };
  },

  draw(d, ctx, state, out) {
    const color = out.theme.drawing[d.color];
    const y = ctx.priceToY(d.price);
    const { left, width } = ctx.pane;
    out.prims.hline(left, left + width, y, state.hovered || state.selected ? 2 : 1, color);
    priceAxisLabel(out.axisPrims, out.axisTexts, out.axisLeft, out.axisWidth, y, ctx.formatPrice(d.price), color, 0xffffffff);
    if (state.selected) {
      const [h] = horizontalLineUtil.handles(d, ctx);
      drawHandle(out.prims, h.x, h.y, out.theme.background, color, HANDLE_RADIUS);
    } else if (state.hovered) {
      const [h] = horizontalLineUtil.handles(d, ctx);
      drawHandle(out.prims, h.x, h.y, withAlpha(color, 0.25), color, HANDLE_RADIUS - 1);
    }
  },
};
