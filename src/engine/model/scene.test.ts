import { describe, expect, it } from 'vitest';
import { createTestChart } from '../../../tests/harness/test-chart';
import { alphaOf } from '../core/colors';
import { priceLineLabel } from './scene';
import { spansCollide } from './view/axis-label-guard';

describe('price line labels', () => {
  it('show side, size and PnL for orders and positions', () => {
    expect(priceLineLabel({ id: 'a', kind: 'order', role: 'entry', side: 'buy', size: 0.5, pnl: 12.3, price: 1 })).toBe('BUY 0.5 · +12.30');
    expect(priceLineLabel({ id: 'a', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: 1 })).toBe('SL SELL 0.5');
    expect(priceLineLabel({ id: 'a', kind: 'order', role: 'take-profit', side: 'sell', size: 2, pnl: -3, price: 1 })).toBe('TP SELL 2 · -3.00');
    expect(priceLineLabel({ id: 'a', kind: 'position', side: 'sell', size: 0.25, pnl: -12.3, price: 1 })).toBe('SELL 0.25 · -12.30');
    expect(priceLineLabel({ id: 'a', kind: 'position', role: 'liquidation', price: 1 })).toBe('Liq.');
    expect(priceLineLabel({ id: 'a', kind: 'position', role: 'break-even', price: 1 })).toBe('BE');
    expect(priceLineLabel({ id: 'a', kind: 'alert', price: 1 })).toBe('Alert');
    expect(priceLineLabel({ id: 'a', kind: 'alert', price: 1, label: 'Breakout' })).toBe('Breakout');
    expect(priceLineLabel({ id: 'a', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: 1, note: 'managed by server' })).toBe('SL SELL 0.5 · managed by server');
  });
});

describe('scene', () => {
  it('labels the price axis with tick-grid prices in the instrument precision', () => {
    const t = createTestChart();
    const s = t.scene;
    const labels = s.axisTexts.items.slice(0, s.axisTexts.count).map((i) => i.text);
    const prices = labels.filter((l) => /^\d+\.\d$/.test(l)).map(Number);
    expect(prices.length).toBeGreaterThanOrEqual(4);
    for (const p of prices) expect(Math.abs(p * 10 - Math.round(p * 10))).toBeLessThan(1e-6);
    // Time labels: HH:mm on a 1-minute chart.
    expect(labels.some((l) => /^\d\d:\d\d$/.test(l))).toBe(true);
  });

  it('rebuilds only the overlay on a pointer move', () => {
    const t = createTestChart();
    const versions = () => [t.scene.grid.version, t.scene.series.version, t.scene.drawings.version, t.scene.overlay.version];
    const before = versions();
    t.controller.setCrosshair({ x: 300, y: 200 });
    // A cursor-level paint, as the façade does for pointer moves.
    t.paintLevel(1);
    const after = versions();
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]).toBe(before[3] + 1);
  });

  it('keeps grid and axis labels on a live tick that leaves the scales alone', () => {
    const t = createTestChart();
    const grid = t.scene.grid.version;
    const series = t.scene.series.version;
    const last = t.candles[t.candles.length - 1];
    t.controller.updateLastCandle({ ...last, close: (last.high + last.low) / 2 });
    t.paint();
    expect(t.scene.series.version).toBe(series + 1);
    expect(t.scene.grid.version).toBe(grid);
  });

  it('draws time lines labelled on the time axis and keeps them out of price-line drags', () => {
    const t = createTestChart();
    const bar = t.candles[t.candles.length - 20];
    const lines = () => t.scene.lines.count;
    t.controller.setLines([]);
    t.paint();
    const without = lines();
    t.controller.setLines([{ id: 'fill', kind: 'time', time: bar.time, label: 'Filled' }]);
    t.paint();
    expect(lines()).toBe(without + 1);
    expect(t.scene.markTexts.items.slice(0, t.scene.markTexts.count).map((i) => i.text)).toContain('Filled');
    expect(t.controller.model.lines).toEqual([]);
  });

  it('shows "No data" without candles and a countdown to the bar close', () => {
    const empty = createTestChart({ bars: 0 });
    expect(empty.scene.markTexts.items.slice(0, empty.scene.markTexts.count).map((i) => i.text)).toContain('No data');
    const t = createTestChart();
    // The harness clock is the last bar's open: 60 s remain on a 1-minute bar.
    expect(t.scene.markTexts.items.slice(0, t.scene.markTexts.count).map((i) => i.text)).toContain('01:00');
  });

  it('draws no empty-state text when the host shows its own (emptyText "")', () => {
    const t = createTestChart({ bars: 0, options: { emptyText: '' } });
    expect(t.scene.markTexts.items.slice(0, t.scene.markTexts.count).map((i) => i.text)).not.toContain('No data');
  });
});

describe('time-axis labels under the crosshair', () => {
  const timeLabels = (t: ReturnType<typeof createTestChart>) => {
    const bottom = t.controller.model.pane.top + t.controller.model.pane.height;
    const list = t.scene.axisTexts;
    return list.items
      .slice(0, list.count)
      .map((item, slot) => ({ ...item, slot }))
      .filter((i) => i.y > bottom);
  };

  it('hides exactly the tick labels the crosshair’s time label would overlap, and shows them again after', () => {
    const t = createTestChart();
    const labels = timeLabels(t);
    expect(labels.length).toBeGreaterThanOrEqual(4);
    const target = labels[2];
    t.controller.setCrosshair({ x: target.x + 3, y: 200 });
    t.paintLevel(1);
    const hidden = t.scene.timeLabels.hiddenSlots(t.scene.axisTexts);
    expect(hidden).toContain(target.slot);
    for (const l of timeLabels(t)) {
      const visible = alphaOf(t.scene.axisTexts.items[l.slot].color) > 0;
      expect(visible).toBe(!hidden.includes(l.slot));
    }
    // Far from every label but the ones it covers: at least one label stays.
    expect(hidden.length).toBeLessThan(labels.length);
    t.controller.setCrosshair(null);
    t.paintLevel(1);
    expect(t.scene.timeLabels.hiddenSlots(t.scene.axisTexts)).toEqual([]);
    for (const l of timeLabels(t)) expect(alphaOf(t.scene.axisTexts.items[l.slot].color)).toBe(1);
  });

  it('hides a time line’s label (box and text) under the crosshair’s time label', () => {
    const t = createTestChart();
    const bar = t.candles[t.candles.length - 30];
    t.controller.setLines([{ id: 'fill', kind: 'time', time: bar.time, label: 'Filled' }]);
    t.paint();
    const slot = t.scene.markTexts.items.slice(0, t.scene.markTexts.count).findIndex((i) => i.text === 'Filled');
    const x = t.controller.model.timeScale.indexToX(t.candles.length - 30);
    t.controller.setCrosshair({ x: x + 40, y: 200 });
    t.paintLevel(1);
    expect(t.scene.timeLabels.hiddenSlots(t.scene.markTexts)).toEqual([slot]);
    expect(alphaOf(t.scene.markTexts.items[slot].color)).toBe(0);
    // A light repaint (the countdown) rebuilds the marks: the label stays hidden while the crosshair is there.
    t.paintLevel(2);
    expect(t.scene.timeLabels.hiddenSlots(t.scene.markTexts)).toEqual([slot]);
  });

  it('decides by the labels’ extents with a few pixels of clearance', () => {
    expect(spansCollide({ left: 0, right: 10 }, { left: 13, right: 20 })).toBe(true);
    expect(spansCollide({ left: 0, right: 10 }, { left: 15, right: 20 })).toBe(false);
    expect(spansCollide({ left: 30, right: 40 }, { left: 0, right: 27 })).toBe(true);
  });
});
