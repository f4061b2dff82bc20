import { describe, expect, it } from 'vitest';
import type { Alert } from '../../api/contracts/alerts';
import { isAlertTriggered } from '../../state/alerts';
import { alertIdOfLine, alertLines, moveAlertPrices } from './alert-lines';

const alert = (over: Partial<Alert> = {}): Alert => ({
  id: '4f2b7e1e-1d8b-4c55-9d3c-0f6f8f7a0c11',
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

describe('alert lines', () => {
  it('active alerts become draggable alert lines at their trigger; the id leads back to the alert', () => {
    const lines = alertLines([alert(), alert({ id: 'x', status: 'triggered' }), alert({ id: 'n', note: 'retest', triggerPrice: 90 })]);
    expect(lines).toEqual([
      { id: `alert:${alert().id}`, kind: 'alert', price: 110, draggable: true },
      { id: 'alert:n', kind: 'alert', price: 90, draggable: true, label: 'Alert · retest' },
    ]);
    expect(alertIdOfLine(lines[0].id)).toBe(alert().id);
    expect(alertIdOfLine('order:1')).toBeNull();
  });
});

describe('moveAlertPrices', () => {
  it('a move on the same side of the market sends the live price as the initial price (direction kept)', () => {
    const moved = moveAlertPrices(alert(), 120, 104, 0.1);
    expect(moved).toEqual({ triggerPrice: 120, initialPrice: 104, crossed: false });
    expect(isAlertTriggered(moved!, 104)).toBe(false);
    expect(isAlertTriggered(moved!, 120)).toBe(true);
  });

  it('dragging a rise alert down across the market fires it at the live price', () => {
    const moved = moveAlertPrices(alert({ initialPrice: 100, triggerPrice: 110 }), 95, 104, 0.1)!;
    expect(moved.crossed).toBe(true);
    expect(moved.triggerPrice).toBe(95);
    expect(moved.initialPrice).toBeLessThan(95);
    expect(moved.initialPrice).toBeGreaterThan(0);
    expect(isAlertTriggered(moved, 104)).toBe(true);
  });

  it("uses the alert's own initial price when it is still on the waiting side", () => {
    expect(moveAlertPrices(alert({ initialPrice: 90, triggerPrice: 110 }), 100, 104, 0.1)).toEqual({ triggerPrice: 100, initialPrice: 90, crossed: true });
  });

  it('dragging a fall alert up across the market fires it', () => {
    const moved = moveAlertPrices(alert({ initialPrice: 100, triggerPrice: 90 }), 105, 98, 0.5)!;
    expect(moved).toMatchObject({ triggerPrice: 105, crossed: true });
    expect(moved.initialPrice).toBeGreaterThan(105);
    expect(isAlertTriggered(moved, 98)).toBe(true);
  });

  it('dropping exactly on the market price counts as crossing (at least one tick away)', () => {
    const moved = moveAlertPrices(alert({ initialPrice: 104, triggerPrice: 110 }), 104, 104, 0.5)!;
    expect(moved).toEqual({ triggerPrice: 104, initialPrice: 103.5, crossed: true });
    expect(isAlertTriggered(moved, 104)).toBe(true);
  });

  it('a mirror below zero falls back to half the trigger', () => {
    expect(moveAlertPrices(alert({ initialPrice: 9, triggerPrice: 10 }), 2, 100, 0.1)).toEqual({ triggerPrice: 2, initialPrice: 1, crossed: true });
  });

  it('nothing to send when dropped where it was, or at a non-positive price', () => {
    expect(moveAlertPrices(alert(), 110, 104, 0.1)).toBeNull();
    expect(moveAlertPrices(alert(), 0, 104, 0.1)).toBeNull();
  });

  it('without a live price yet the direction comes from the alert itself', () => {
    expect(moveAlertPrices(alert(), 120, undefined, 0.1)).toEqual({ triggerPrice: 120, initialPrice: 100, crossed: false });
  });
});
