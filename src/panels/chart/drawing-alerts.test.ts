import { describe, expect, it } from 'vitest';
import type { Alert } from '../../api/contracts/alerts';
import { alertsOfDrawing, alertsToFollow, alertTargets, drawingLink, parseDrawingLink } from './drawing-alerts';

const alert = (over: Partial<Alert>): Alert => ({
  id: 'a1',
  exchange: 'binance',
  network: 'MAINNET',
  symbol: 'BTCUSDT',
  initialPrice: 100,
  triggerPrice: 110,
  status: 'active',
  triggeredAt: null,
  triggeredPrice: null,
  note: null,
  drawingId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const line = { id: 'L1', kind: 'line' as const, price: 120, color: 'blue' as const };
const rect = { id: 'R1', kind: 'rectangle' as const, p1: { time: 1, price: 90 }, p2: { time: 2, price: 130 }, color: 'red' as const };

describe('alerts tied to drawings', () => {
  it('links a line, or a rectangle edge, and reads the link back', () => {
    expect(alertTargets(line)).toEqual([{ link: 'L1', label: 'Alert on this line', price: 120 }]);
    expect(alertTargets(rect)).toEqual([
      { link: 'R1:top', label: 'Alert on the top edge', price: 130 },
      { link: 'R1:bottom', label: 'Alert on the bottom edge', price: 90 },
    ]);
    expect(parseDrawingLink(drawingLink('R1', 'top'))).toEqual({ drawingId: 'R1', edge: 'top' });
    expect(parseDrawingLink('L1')).toEqual({ drawingId: 'L1', edge: null });
    expect(parseDrawingLink(null)).toBeNull();
  });

  it('moves the alerts of a moved drawing to its new price (each edge its own), and only active, linked, changed ones', () => {
    const alerts = [
      alert({ id: 'onLine', drawingId: 'L1', triggerPrice: 110 }),
      alert({ id: 'top', drawingId: 'R1:top', triggerPrice: 125 }),
      alert({ id: 'bottom', drawingId: 'R1:bottom', triggerPrice: 90 }),
      alert({ id: 'free', triggerPrice: 110 }),
      alert({ id: 'fired', drawingId: 'L1', status: 'triggered' }),
    ];
    expect(alertsToFollow(alerts, line).map((f) => [f.alert.id, f.price])).toEqual([['onLine', 120]]);
    // The rectangle dragged so that p1 is now its top: the edges are by price, not by corner.
    const moved = { ...rect, p1: { time: 1, price: 140 }, p2: { time: 2, price: 95 } };
    expect(alertsToFollow(alerts, moved).map((f) => [f.alert.id, f.price])).toEqual([
      ['top', 140],
      ['bottom', 95],
    ]);
    expect(alertsToFollow(alerts, rect).map((f) => f.alert.id)).toEqual(['top']);
    expect(alertsOfDrawing(alerts, 'R1').map((a) => a.id)).toEqual(['top', 'bottom']);
  });
});
