import { describe, expect, it } from 'vitest';
import type { TradePrint } from '../../api/market/order-flow';
import { CanvasSurface } from '../shared/canvas/canvas-surface';
import { FakeContext2D } from '../shared/canvas/fake-context';
import { ROW_PX, tapeTime, TapePainter } from './tape-painter';

const T = Date.UTC(2026, 0, 1, 12, 0, 0, 250);
const print = (id: number, price: string, size: number, side: 'buy' | 'sell' = 'buy', count = 1): TradePrint => ({ id: String(id), time: T + id, price, size: String(size), p: Number(price), s: size, side, count });

function setup() {
  const ctx = new FakeContext2D();
  const canvas = { width: 0, height: 0, getContext: () => ctx } as unknown as HTMLCanvasElement;
  const surface = new CanvasSurface(canvas);
  surface.resize(300, 10 * ROW_PX);
  return { ctx, painter: new TapePainter(surface, 60) };
}
const f = { minSize: 0, largeSize: 0, sizeDecimals: 3 };

describe('TapePainter', () => {
  it('draws time, price and size (with ×n for an aggregate) per row, newest at the top', () => {
    const { ctx, painter } = setup();
    painter.update([print(2, '100.5', 0.25), print(1, '100.4', 1.5, 'sell', 3)], f);
    expect(ctx.textIn(0, ROW_PX)).toBe(`${tapeTime(T + 2)}100.50.250`);
    expect(ctx.textIn(ROW_PX, ROW_PX)).toBe(`${tapeTime(T + 1)}100.41.500×3`);
  });

  it('new prints move the painted rows down (one image copy) and only the new rows are drawn', () => {
    const { ctx, painter } = setup();
    const older = [print(3, '100.3', 1), print(2, '100.2', 1), print(1, '100.1', 1)];
    painter.update(older, f);
    ctx.calls.length = 0;
    painter.update([print(5, '100.5', 2), print(4, '100.4', 2), ...older], f);
    expect(ctx.calls.filter((c) => c.op === 'drawImage')).toEqual([expect.objectContaining({ y: 2 * ROW_PX, fillStyle: 'copy' })]);
    const texts = ctx.calls.filter((c) => c.op === 'fillText');
    expect(texts.every((c) => c.y < 2 * ROW_PX)).toBe(true);
    expect(ctx.textIn(0, ROW_PX)).toContain('100.52.000');
    expect(painter.painted().map((r) => r.price)).toEqual(['100.5', '100.4', '100.3', '100.2', '100.1']);
  });
});
