import { describe, expect, it } from 'vitest';
import { hitTestDrawings } from './hit-test';
import type { Drawing } from './records';
import { at, linearContext } from './test-context';

const ctx = linearContext();
const rect: Drawing = { id: 'rect', kind: 'rectangle', p1: { time: at(10), price: 170 }, p2: { time: at(40), price: 130 }, color: 'blue' };
const lineInside: Drawing = { id: 'line', kind: 'line', price: 150, color: 'red' };
const rect2: Drawing = { id: 'rect2', kind: 'rectangle', p1: { time: at(20), price: 165 }, p2: { time: at(30), price: 135 }, color: 'green' };

describe('hit-testing', () => {
  it('prefers a line over the area around it', () => {
    const hit = hitTestDrawings([rect, lineInside], ctx, ctx.timeToX(at(15)), ctx.priceToY(150) + 3, null);
    expect(hit).toMatchObject({ id: 'line', part: 'line' });
  });

  it('prefers a handle over a line passing through it', () => {
    const x = ctx.timeToX(at(10));
    const y = ctx.priceToY(170);
    const crossing: Drawing = { id: 'h', kind: 'line', price: 170, color: 'red' };
    const hit = hitTestDrawings([rect, crossing], ctx, x + 2, y, null);
    expect(hit).toMatchObject({ id: 'rect', part: 'handle', handleId: 'p1' });
  });

  it('picks the nearest among equals and the top-most on a tie', () => {
    const near = hitTestDrawings([rect, rect2], ctx, ctx.timeToX(at(25)), ctx.priceToY(150), null);
    // Inside both areas: the later (top) one wins.
    expect(near).toMatchObject({ id: 'rect2', part: 'area' });
    const edge = hitTestDrawings([rect, rect2], ctx, ctx.timeToX(at(25)), ctx.priceToY(165) - 2, null);
    expect(edge).toMatchObject({ id: 'rect2', part: 'line' });
  });

  it("prefers the selected drawing's handle when handles overlap", () => {
    const a: Drawing = { id: 'a', kind: 'rectangle', p1: { time: at(10), price: 170 }, p2: { time: at(20), price: 150 }, color: 'blue' };
    const b: Drawing = { id: 'b', kind: 'rectangle', p1: { time: at(10), price: 170 }, p2: { time: at(30), price: 140 }, color: 'blue' };
    const x = ctx.timeToX(at(10));
    const y = ctx.priceToY(170);
    expect(hitTestDrawings([a, b], ctx, x, y, null)?.id).toBe('b');
    expect(hitTestDrawings([a, b], ctx, x, y, 'a')?.id).toBe('a');
  });

  it('misses beyond the margins', () => {
    expect(hitTestDrawings([rect, lineInside], ctx, ctx.timeToX(at(60)), ctx.priceToY(100), null)).toBeNull();
  });
});
