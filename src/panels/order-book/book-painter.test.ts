import { describe, expect, it } from 'vitest';
import { fakeLevel } from '../../api/market/order-flow/fake-feed';
import type { BookView } from '../../api/market/order-flow';
import { CanvasSurface } from '../shared/canvas/canvas-surface';
import { FakeContext2D } from '../shared/canvas/fake-context';
import { BookPainter, ROW_PX, SPREAD_PX } from './book-painter';
import { gridOf } from './group-levels';

const view = (bids: Array<[string, string]>, asks: Array<[string, string]>): BookView => ({ bids: bids.map(([p, s]) => fakeLevel(p, s)), asks: asks.map(([p, s]) => fakeLevel(p, s)), version: 1, status: 'live', tickSize: '0.1' });

/** A painter on a 300 × 400 px canvas drawing into a recording context. */
function setup() {
  const ctx = new FakeContext2D();
  const canvas = { width: 0, height: 0, getContext: () => ctx } as unknown as HTMLCanvasElement;
  const surface = new CanvasSurface(canvas);
  surface.resize(300, 400);
  const painter = new BookPainter(surface, 30);
  const options = { grid: gridOf('0.1'), ticks: 1, sizeDecimals: 3, own: { bids: new Map([[1001, '0.01']]), asks: new Map<number, string>() } };
  return { ctx, painter, options };
}

const band = Math.floor((400 - SPREAD_PX) / 2);
const bidTop = (i: number) => band + SPREAD_PX + i * ROW_PX;
const askTop = (i: number) => band - (i + 1) * ROW_PX;

describe('BookPainter', () => {
  it('draws each level’s price, size and cumulative size on its row, the own-order mark, and the spread band', () => {
    const { ctx, painter, options } = setup();
    painter.update(view([['100.3', '1'], ['100.1', '2']], [['100.6', '1.5']]), options);
    expect(ctx.textIn(bidTop(0), ROW_PX)).toBe('100.31.0001.000');
    expect(ctx.textIn(bidTop(1), ROW_PX)).toBe('100.12.0003.000● 0.01');
    expect(ctx.textIn(askTop(0), ROW_PX)).toBe('100.61.5001.500');
    expect(ctx.textIn(band, SPREAD_PX)).toBe('Spread0.3·Mid100.45') // spaces advance, they are not drawn;
    // The size bar of the largest level spans the width, from the right edge.
    const bar = ctx.calls.find((c) => c.op === 'fillRect' && c.y === bidTop(1) + 1 && c.w === 300);
    expect(bar).toBeDefined();
  });

  it('redraws only the rows that changed; an unchanged book draws nothing', () => {
    const { ctx, painter, options } = setup();
    const bids: Array<[string, string]> = [['100.3', '1'], ['100.1', '2'], ['99.9', '2']];
    // The asks hold the largest level and the deepest total: the bids' bars are measured against them.
    painter.update(view(bids, [['100.6', '6']]), options);
    ctx.calls.length = 0;
    painter.update(view(bids, [['100.6', '6']]), options);
    expect(ctx.calls).toEqual([]);
    // The third bid's size moves: its row (size and total) is drawn again, nothing else.
    painter.update(view([['100.3', '1'], ['100.1', '2'], ['99.9', '1.5']], [['100.6', '6']]), options);
    expect(ctx.calls.length).toBeGreaterThan(0);
    const rows = new Set(ctx.calls.map((c) => Math.floor((c.op === 'fillText' ? c.y - ROW_PX / 2 : c.y) + 0.5)));
    expect([...rows].every((y) => y >= bidTop(2) && y <= bidTop(2) + 1)).toBe(true);
    expect(ctx.textIn(bidTop(2), ROW_PX)).toBe('99.91.5004.500');
  });

  it('hit-tests a point to a side and a row; the band and empty rows are none', () => {
    const { painter, options } = setup();
    painter.update(view([['100.3', '1'], ['100.1', '2']], [['100.6', '1.5']]), options);
    expect(painter.hit(bidTop(1) + 3)).toEqual({ side: 'bid', index: 1 });
    expect(painter.hit(askTop(0) + 3)).toEqual({ side: 'ask', index: 0 });
    expect(painter.hit(band + 5)).toBeNull();
    expect(painter.hit(askTop(1) + 3)).toBeNull();
  });
});
