import { describe, expect, it } from 'vitest';
import { fibonacciUtil } from './fibonacci/util';
import { horizontalLineUtil } from './horizontal-line/util';
import { FIB_DEFAULTS, drawingSchema, type FibRetracementDrawing, type HorizontalLineDrawing, type RectangleDrawing } from './records';
import { rectangleUtil } from './rectangle/util';
import { at, linearContext } from './test-context';

const ctx = linearContext();
const line: HorizontalLineDrawing = { id: 'l', kind: 'line', price: 150, color: 'yellow', symbol: 'BTCUSDT' };
const rect: RectangleDrawing = { id: 'r', kind: 'rectangle', p1: { time: at(10), price: 160 }, p2: { time: at(20), price: 140 }, color: 'green' };
const fib: FibRetracementDrawing = { id: 'f', kind: 'fib-retracement', rect: { p1: { time: at(30), price: 120 }, p2: { time: at(50), price: 180 } }, fibColor: 'red', ...FIB_DEFAULTS };

describe('horizontal line util', () => {
  it('has one handle on the line and is hit within the margin only', () => {
    const [h] = horizontalLineUtil.handles(line, ctx);
    expect(h.y).toBe(ctx.priceToY(150));
    expect(horizontalLineUtil.hitBody(line, ctx, 100, ctx.priceToY(150) + 4, 6)).toEqual({ part: 'line', distance: 4 });
    expect(horizontalLineUtil.hitBody(line, ctx, 100, ctx.priceToY(150) + 9, 6)).toBeNull();
  });

  it('moves by handle or body without mutating the record, rounding to the tick', () => {
    expect(horizontalLineUtil.dragHandle(line, 'price', { time: at(3), price: 151.5 })).toEqual({ price: 151.5 });
    expect(horizontalLineUtil.translate(line, 40, -21, ctx)).toEqual({ price: 160.5 });
    expect(line.price).toBe(150);
  });
});

describe('rectangle util', () => {
  it('names its corners after the fields they own', () => {
    const hs = rectangleUtil.handles(rect, ctx);
    expect(hs.map((h) => h.id)).toEqual(['p1', 'p2', 'p1p2', 'p2p1']);
    expect(hs[2]).toEqual({ id: 'p1p2', x: ctx.timeToX(at(10)), y: ctx.priceToY(140) });
  });

  it('turns a corner drag into a partial update of both points where needed', () => {
    expect(rectangleUtil.dragHandle(rect, 'p2', { time: at(25), price: 130 })).toEqual({ p2: { time: at(25), price: 130 } });
    expect(rectangleUtil.dragHandle(rect, 'p1p2', { time: at(5), price: 135 })).toEqual({
      p1: { time: at(5), price: 160 },
      p2: { time: at(20), price: 135 },
    });
    expect(rectangleUtil.dragHandle(rect, 'p2p1', { time: at(22), price: 170 })).toEqual({
      p2: { time: at(22), price: 140 },
      p1: { time: at(10), price: 170 },
    });
    expect(rect.p1).toEqual({ time: at(10), price: 160 });
  });

  it('translates by whole bars and tick-rounded prices', () => {
    expect(rectangleUtil.translate(rect, 34, 10, ctx)).toEqual({
      p1: { time: at(13), price: 155 },
      p2: { time: at(23), price: 135 },
    });
  });

  it('distinguishes edges (lines) from the inside (area)', () => {
    const x = ctx.timeToX(at(15));
    expect(rectangleUtil.hitBody(rect, ctx, x, ctx.priceToY(160) + 2, 6)?.part).toBe('line');
    expect(rectangleUtil.hitBody(rect, ctx, x, ctx.priceToY(150), 6)).toEqual({ part: 'area', distance: 0 });
    expect(rectangleUtil.hitBody(rect, ctx, ctx.timeToX(at(40)), ctx.priceToY(150), 6)).toBeNull();
  });
});

describe('fibonacci util', () => {
  it('drags p1 or p2 only', () => {
    expect(fibonacciUtil.dragHandle(fib, 'p2', { time: at(60), price: 200 })).toEqual({ rect: { p1: fib.rect.p1, p2: { time: at(60), price: 200 } } });
    expect(fibonacciUtil.dragHandle(fib, 'nope', { time: 0, price: 0 })).toEqual({});
  });

  it('is hit on every level line inside its time span', () => {
    const x = ctx.timeToX(at(40));
    const y618 = ctx.priceToY(180 + (120 - 180) * 0.618);
    expect(fibonacciUtil.hitBody(fib, ctx, x, y618 + 1, 6)?.part).toBe('line');
    const y3 = ctx.priceToY(180 + (120 - 180) * 3);
    expect(fibonacciUtil.hitBody(fib, ctx, x, y3, 6)?.part).toBe('line');
    expect(fibonacciUtil.hitBody(fib, ctx, ctx.timeToX(at(70)), y3, 6)).toBeNull();
  });

  it('moves both points together', () => {
    const moved = fibonacciUtil.translate(fib, -20, 0, ctx);
    expect(moved).toEqual({ rect: { p1: { time: at(28), price: 120 }, p2: { time: at(48), price: 180 } } });
  });
});

describe('records', () => {
  it('validate and round-trip through JSON with the SPEC fields', () => {
    for (const d of [line, rect, fib]) expect(drawingSchema.parse(JSON.parse(JSON.stringify(d)))).toEqual(d);
    expect(drawingSchema.parse({ id: 'x', kind: 'fib-retracement', rect: fib.rect })).toMatchObject({
      fibColor: 'blue',
      fibAmountOfPositiveLines: '2',
      fibIncrement: '1',
      fibMainValue: '0.618',
    });
    expect(drawingSchema.safeParse({ id: 'x', kind: 'line', price: 1, color: 'purple' }).success).toBe(false);
  });
});
