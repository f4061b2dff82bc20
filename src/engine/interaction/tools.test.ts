import { describe, expect, it } from 'vitest';
import { createTestChart } from '../../../tests/harness/test-chart';
import type { Drawing, RectangleDrawing } from '../drawings/records';
import type { ChartEvents } from '../types';

/** Screen position of a chart point in the test chart. */
function screen(t: ReturnType<typeof createTestChart>, time: number, price: number) {
  const ctx = t.controller.ctx();
  return { x: ctx.timeToX(time), y: ctx.priceToY(price) };
}

describe('select tool', () => {
  it('pans on a drag over empty space: idle → pointing_canvas → panning → idle', () => {
    const t = createTestChart();
    const before = t.controller.getVisibleRange();
    expect(t.state()).toBe('select.idle');
    t.down(400, 200);
    expect(t.state()).toBe('select.pointing_canvas');
    t.move(402, 200);
    expect(t.state()).toBe('select.pointing_canvas');
    t.move(480, 200);
    expect(t.state()).toBe('select.panning');
    t.up(480, 200);
    expect(t.state()).toBe('select.idle');
    expect(t.controller.getVisibleRange().from).toBeCloseTo(before.from - 80 / 8, 6);
  });

  it('moves a drawing by its body and commits once on pointer-up', () => {
    const t = createTestChart();
    const c = t.candles;
    const price = c[c.length - 30].close;
    t.controller.setDrawings([{ id: 'l1', kind: 'line', price, color: 'blue', symbol: 'X' }]);
    t.paint();
    const p = screen(t, c[c.length - 50].time, price);
    t.down(p.x, p.y);
    expect(t.state()).toBe('select.pointing_drawing');
    expect(t.controller.selectedId()).toBe('l1');
    t.move(p.x, p.y + 20);
    expect(t.state()).toBe('select.translating');
    expect(t.committed()).toHaveLength(0);
    t.up(p.x, p.y + 20);
    expect(t.state()).toBe('select.idle');
    const [commit] = t.committed();
    expect(commit.created).toBe(false);
    const moved = commit.drawing as Extract<Drawing, { kind: 'line' }>;
    const ctx = t.controller.ctx();
    expect(moved.price).toBe(ctx.roundPrice(ctx.yToPrice(p.y + 20)));
    // App fields survive an edit.
    expect(moved.symbol).toBe('X');
  });

  it('does not commit a click without movement', () => {
    const t = createTestChart();
    const price = t.candles[250].close;
    t.controller.setDrawings([{ id: 'l1', kind: 'line', price, color: 'blue' }]);
    t.paint();
    const p = screen(t, t.candles[250].time, price);
    t.click(p.x, p.y);
    expect(t.committed()).toHaveLength(0);
    expect(t.controller.selectedId()).toBe('l1');
  });

  it('resizes a rectangle by a corner handle: only that corner changes', () => {
    const t = createTestChart();
    const c = t.candles;
    const rect: RectangleDrawing = { id: 'r', kind: 'rectangle', p1: { time: c[230].time, price: c[230].high + 50 }, p2: { time: c[260].time, price: c[260].low - 50 }, color: 'red' };
    t.controller.setDrawings([rect]);
    t.paint();
    const h = screen(t, rect.p2.time, rect.p2.price);
    t.down(h.x, h.y);
    t.move(h.x + 16, h.y + 10);
    expect(t.state()).toBe('select.dragging_handle');
    t.up(h.x + 16, h.y + 10);
    const r = t.committed()[0].drawing as RectangleDrawing;
    expect(r.p1).toEqual(rect.p1);
    expect(r.p2.time).toBe(c[262].time);
  });

  it('Escape cancels a drag and leaves the record as it was', () => {
    const t = createTestChart();
    const price = t.candles[250].close;
    t.controller.setDrawings([{ id: 'l1', kind: 'line', price, color: 'blue' }]);
    t.paint();
    const p = screen(t, t.candles[250].time, price);
    t.down(p.x, p.y);
    t.move(p.x, p.y + 30);
    expect(t.controller.getDrawings()[0]).not.toMatchObject({ price });
    t.controller.cancel();
    expect(t.state()).toBe('select.idle');
    expect(t.controller.getDrawings()[0]).toMatchObject({ price });
    t.up(p.x, p.y + 30);
    expect(t.committed()).toHaveLength(0);
  });

  it('Delete removes the selected drawing and emits drawingDeleted', () => {
    const t = createTestChart();
    t.controller.setDrawings([{ id: 'l1', kind: 'line', price: t.candles[250].close, color: 'blue' }]);
    t.controller.selectDrawing('l1');
    t.controller.deleteSelected();
    const deleted = t.events.find((e) => e.type === 'drawingDeleted')?.payload as ChartEvents['drawingDeleted'];
    expect(deleted.id).toBe('l1');
    expect(t.controller.getDrawings()).toEqual([]);
    expect(t.controller.selectedId()).toBeNull();
  });

  it('drags a draggable price line and reports the tick-rounded price', () => {
    const t = createTestChart();
    const price = t.candles[280].close;
    t.controller.setLines([
      { id: 'o1', kind: 'order', role: 'entry', side: 'buy', size: 1, price, draggable: true },
      { id: 'a1', kind: 'alert', price: price + 200 },
    ]);
    const p = screen(t, t.candles[260].time, price);
    t.down(p.x, p.y + 2);
    expect(t.state()).toBe('select.pointing_line');
    t.move(p.x, p.y + 40);
    expect(t.state()).toBe('select.dragging_line');
    t.up(p.x, p.y + 40);
    const dragged = t.events.find((e) => e.type === 'lineDragged')?.payload as ChartEvents['lineDragged'];
    const ctx = t.controller.ctx();
    expect(dragged.id).toBe('o1');
    expect(dragged.price).toBe(ctx.roundPrice(ctx.yToPrice(p.y + 40)));
    expect(Math.abs(dragged.price * 10 - Math.round(dragged.price * 10))).toBeLessThan(1e-9);
    // A non-draggable line is not grabbed: pressing on it pans.
    const a = screen(t, t.candles[260].time, price + 200);
    t.down(a.x, a.y);
    expect(t.state()).toBe('select.pointing_canvas');
  });

  it("reports a click on a closable line's ✕, not a drag, and ignores a press that leaves the box", () => {
    const t = createTestChart();
    const price = t.candles[280].close;
    t.controller.setLines([
      { id: 'o1', kind: 'order', role: 'stop', side: 'sell', size: 1, price, draggable: true, closable: true },
      { id: 'o2', kind: 'order', role: 'take-profit', side: 'sell', size: 1, price: price + 300, draggable: true },
    ]);
    t.paint();
    const boxes = t.controller.model.lineCloseBoxes;
    expect(boxes.map((b) => b.id)).toEqual(['o1']);
    const b = boxes[0];
    const y = t.controller.ctx().priceToY(price);
    expect(b.top).toBeLessThan(y);
    expect(b.top + b.height).toBeGreaterThan(y);
    const cx = b.left + b.width / 2;
    const cy = b.top + b.height / 2;
    t.down(cx, cy);
    expect(t.state()).toBe('select.pointing_line_close');
    t.up(cx, cy);
    const closed = t.events.filter((e) => e.type === 'lineCloseClicked').map((e) => (e.payload as ChartEvents['lineCloseClicked']).id);
    expect(closed).toEqual(['o1']);
    expect(t.events.some((e) => e.type === 'lineDragged')).toBe(false);
    // Pressed on the ✕ but released elsewhere: nothing happens.
    t.down(cx, cy);
    t.move(cx + 60, cy + 60);
    t.up(cx + 60, cy + 60);
    expect(t.events.filter((e) => e.type === 'lineCloseClicked')).toHaveLength(1);
    // The line itself, right of its ✕, still drags.
    t.down(b.left + b.width + 200, y);
    expect(t.state()).toBe('select.pointing_line');
    t.up(b.left + b.width + 200, y);
  });

  it('highlights the drawing under the pointer', () => {
    const t = createTestChart();
    const price = t.candles[250].close;
    t.controller.setDrawings([{ id: 'l1', kind: 'line', price, color: 'blue' }]);
    t.paint();
    const p = screen(t, t.candles[250].time, price);
    t.move(p.x, p.y + 3);
    expect(t.controller.model.hoveredId).toBe('l1');
    t.move(p.x, p.y + 60);
    expect(t.controller.model.hoveredId).toBeNull();
  });
});

describe('creation tools', () => {
  it('places a horizontal line with a click, then returns to Select with it selected', () => {
    const t = createTestChart({ options: { toolOptions: { color: 'yellow', symbol: 'BTCUSDT', magnet: false } } });
    t.controller.setTool('line');
    expect(t.state()).toBe('line.idle');
    t.down(300, 200);
    expect(t.state()).toBe('line.pointing');
    t.up(300, 200);
    expect(t.state()).toBe('select.idle');
    const [commit] = t.committed();
    expect(commit.created).toBe(true);
    const ctx = t.controller.ctx();
    expect(commit.drawing).toEqual({ id: 'new-1', kind: 'line', price: ctx.roundPrice(ctx.yToPrice(200)), color: 'yellow', symbol: 'BTCUSDT' });
    expect(t.controller.selectedId()).toBe('new-1');
    expect(t.events.some((e) => e.type === 'toolChanged' && (e.payload as { tool: string }).tool === 'default')).toBe(true);
  });

  it('snaps a horizontal line to the nearest OHLC value with the magnet on, not with it off', () => {
    const t = createTestChart();
    // The bar with the longest upper wick: its high is far from its open and close.
    const bar = t.candles.slice(250).reduce((a, b) => (b.high - Math.max(b.open, b.close) > a.high - Math.max(a.open, a.close) ? b : a));
    const p = screen(t, bar.time, bar.high);
    const ctx = t.controller.ctx();
    t.controller.setTool('line');
    t.click(p.x, p.y + 4);
    expect((t.committed()[0].drawing as Extract<Drawing, { kind: 'line' }>).price).toBe(bar.high);
    t.controller.setToolOptions({ magnet: false });
    t.controller.setTool('line');
    t.click(p.x, p.y + 4);
    expect((t.committed()[1].drawing as Extract<Drawing, { kind: 'line' }>).price).toBe(ctx.roundPrice(ctx.yToPrice(p.y + 4)));
    // Far from any of the bar's prices the magnet leaves the price alone.
    t.controller.setToolOptions({ magnet: true });
    t.controller.setTool('line');
    t.click(p.x, p.y - 40);
    expect((t.committed()[2].drawing as Extract<Drawing, { kind: 'line' }>).price).toBe(ctx.roundPrice(ctx.yToPrice(p.y - 40)));
  });

  it('draws a rectangle by dragging: idle → pointing → dragging → committed', () => {
    const t = createTestChart();
    t.controller.setTool('rectangle');
    t.down(200, 150);
    expect(t.state()).toBe('rectangle.pointing');
    t.move(260, 200);
    expect(t.state()).toBe('rectangle.dragging');
    expect(t.controller.getDrawings()).toHaveLength(1);
    t.move(300, 250);
    t.up(300, 250);
    expect(t.state()).toBe('select.idle');
    const r = t.committed()[0].drawing as RectangleDrawing;
    expect(r.kind).toBe('rectangle');
    expect(r.color).toBe('blue');
    const ctx = t.controller.ctx();
    expect(ctx.timeToX(r.p1.time)).toBeCloseTo(200, -1);
    expect(ctx.timeToX(r.p2.time)).toBeCloseTo(300, -1);
    // Times are bar times.
    expect(t.candles.some((c) => c.time === r.p1.time)).toBe(true);
  });

  it('draws a fib retracement with two clicks and the SPEC default fields', () => {
    const t = createTestChart({ options: { toolOptions: { color: 'green' } } });
    t.controller.setTool('fib-retracement');
    t.click(200, 300);
    expect(t.state()).toBe('fib-retracement.awaiting_second');
    t.move(350, 120);
    expect(t.controller.getDrawings()).toHaveLength(1);
    t.click(350, 120);
    expect(t.state()).toBe('select.idle');
    expect(t.committed()[0].drawing).toMatchObject({
      kind: 'fib-retracement',
      fibColor: 'green',
      fibAmountOfPositiveLines: '2',
      fibIncrement: '1',
      fibMainValue: '0.618',
      fibCustomValue: '',
    });
  });

  it('Escape abandons a drawing in progress and returns to Select', () => {
    const t = createTestChart();
    t.controller.setTool('rectangle');
    t.down(200, 150);
    t.move(260, 200);
    t.controller.cancel();
    expect(t.state()).toBe('select.idle');
    expect(t.controller.getDrawings()).toEqual([]);
    expect(t.committed()).toEqual([]);
  });
});

describe('history paging and live updates', () => {
  it('asks once for older bars near the left edge, again after a page arrives, never after an empty page', () => {
    const t = createTestChart();
    t.controller.setVisibleRange({ from: 10, to: 110 });
    t.controller.checkHistory();
    t.controller.checkHistory();
    const asks = () => t.events.filter((e) => e.type === 'needHistory').map((e) => e.payload);
    expect(asks()).toEqual([t.candles[0].time]);
    expect(t.controller.model.historyLoading).toBe(true);
    const older = t.candles.map((c) => ({ ...c, time: c.time - 300 * 60 }));
    t.controller.prependCandles(older);
    // The view stays on the same bars: indexes moved by the page size.
    expect(t.controller.getVisibleRange().from).toBeCloseTo(310, 6);
    t.controller.setVisibleRange({ from: 10, to: 110 });
    t.controller.checkHistory();
    expect(asks()).toHaveLength(2);
    t.controller.prependCandles([]);
    t.controller.checkHistory();
    expect(asks()).toHaveLength(2);
  });

  it('follows new bars at the live edge but not while the user reads history', () => {
    const t = createTestChart();
    const last = t.candles[t.candles.length - 1];
    const to = t.controller.getVisibleRange().to;
    t.controller.updateLastCandle({ ...last, time: last.time + 60 });
    expect(t.controller.getVisibleRange().to).toBeCloseTo(to + 1, 6);
    t.controller.setVisibleRange({ from: 50, to: 150 });
    t.controller.updateLastCandle({ ...last, time: last.time + 120 });
    expect(t.controller.getVisibleRange()).toEqual({ from: 50, to: 150 });
  });
});
