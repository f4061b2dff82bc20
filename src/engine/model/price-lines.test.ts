import { describe, expect, it } from 'vitest';
import { createTestChart } from '../../../tests/harness/test-chart';
import type { OffscreenLine, PriceLine } from '../types';
import { LABEL_HEIGHT } from './view/labels';

/** A test chart with `lines` set and painted; its visible price range before any line was placed. */
function chartWith(lines: (range: { lo: number; hi: number; last: number }) => PriceLine[]) {
  const t = createTestChart();
  const ps = t.controller.model.priceScale;
  const range = { lo: ps.min, hi: ps.max, last: t.candles[t.candles.length - 1].close };
  t.controller.setLines(lines(range));
  t.paint();
  return { t, range };
}

/** Where each label text was drawn (CSS px), by its string. */
function textYs(list: { items: { text: string; y: number }[]; count: number }): Map<string, number> {
  return new Map(list.items.slice(0, list.count).map((i) => [i.text, i.y]));
}

describe('price lines outside the visible price range', () => {
  it('are pinned to the top or bottom edge as markers with their label and price, not drawn as lines', () => {
    const { t, range } = chartWith(({ lo, hi }) => [
      { id: 'tp', kind: 'order', role: 'take-profit', side: 'sell', size: 0.5, price: Math.round((hi + (hi - lo)) * 10) / 10 },
      { id: 'sl', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: Math.round((lo - (hi - lo)) * 10) / 10 },
      { id: 'liq', kind: 'position', role: 'liquidation', price: Math.round((lo - 3 * (hi - lo)) * 10) / 10 },
    ]);
    const m = t.controller.model;
    const pane = m.pane;
    const byId = new Map(m.offscreenLines.map((o) => [o.id, o]));
    expect([...byId.keys()].sort()).toEqual(['liq', 'sl', 'tp']);
    expect(byId.get('tp')!.edge).toBe('above');
    expect(byId.get('sl')!.edge).toBe('below');
    const box = (id: string) => byId.get(id)!.box;
    expect(box('tp').top).toBeLessThan(pane.top + 10);
    // Both below: the lower price at the very edge, the stop stacked above it, not overlapping.
    expect(box('liq').top + box('liq').height).toBeGreaterThan(pane.top + pane.height - 10);
    expect(box('sl').top + box('sl').height).toBeLessThanOrEqual(box('liq').top);
    for (const o of m.offscreenLines) expect(o.box.left + o.box.width).toBeLessThanOrEqual(pane.left + pane.width);
    const texts = textYs(t.scene.lineTexts);
    expect(texts.has('TP SELL 0.5')).toBe(true);
    expect(texts.has(m.formatPrice(t.controller.model.lines[1].price))).toBe(true);
    // Nothing on the price axis for them (their prices are in the markers), and no ✕ box to hit.
    expect(textYs(t.scene.markTexts).has(m.formatPrice(t.controller.model.lines[1].price))).toBe(false);
    expect(range.hi).toBeGreaterThan(range.lo);
  });

  it('bring the line into view with a margin when the marker is clicked, keeping what was in view', () => {
    const { t, range } = chartWith(({ lo, hi }) => [{ id: 'sl', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: Math.round((lo - (hi - lo) * 0.5) * 10) / 10, draggable: true }]);
    const m = t.controller.model;
    const [marker] = m.offscreenLines;
    const [x, y0] = [marker.box.left + 5, marker.box.top + 5];
    t.move(x, y0);
    expect(t.controller.model.target(x, y0)).toEqual({ type: 'line-marker', id: 'sl' });
    t.down(x, y0);
    expect(t.state()).toBe('select.pointing_line_marker');
    t.up(x, y0);
    t.paint();
    const ps = m.priceScale;
    expect(ps.autoScale).toBe(false);
    const y = ps.priceToY(m.lines[0].price);
    expect(y).toBeLessThan(m.pane.top + m.pane.height - 40);
    expect(ps.min).toBeLessThan(range.lo);
    expect(ps.max).toBeCloseTo(range.hi, 6);
    expect(m.offscreenLines).toEqual([]);
    expect(t.state()).toBe('select.idle');
    // Now it is a line again: it can be dragged.
    expect(t.controller.target(300, y)).toEqual({ type: 'line', id: 'sl' });
  });

  it('are reported once per change through offscreenLines', () => {
    const t = createTestChart();
    const seen: OffscreenLine[][] = [];
    t.controller.events.on('offscreenLines', (l) => seen.push(l));
    const ps = t.controller.model.priceScale;
    t.controller.setLines([{ id: 'a', kind: 'alert', price: ps.max * 2 }]);
    t.paint();
    t.controller.checkOffscreenLines();
    t.paint();
    t.controller.checkOffscreenLines();
    expect(seen).toHaveLength(1);
    expect(seen[0].map((o) => [o.id, o.edge])).toEqual([['a', 'above']]);
    expect(t.controller.revealLine('a')).toBe(true);
    t.paint();
    t.controller.checkOffscreenLines();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual([]);
    expect(t.controller.revealLine('a')).toBe(false);
  });
});

describe('labels of nearby price lines', () => {
  it('are stacked, at the left and on the price axis, when the lines are a tick apart', () => {
    const { t } = chartWith(({ lo, hi }) => {
      const p = Math.round((lo + (hi - lo) * 0.7) * 10) / 10;
      return [
        { id: 'entry', kind: 'position', role: 'entry', side: 'buy', size: 0.25, price: p },
        { id: 'be', kind: 'position', role: 'break-even', price: p + 0.1 },
      ];
    });
    const m = t.controller.model;
    const left = textYs(t.scene.lineTexts);
    expect(Math.abs(left.get('BUY 0.25')! - left.get('BE')!)).toBeGreaterThanOrEqual(LABEL_HEIGHT);
    // BE is the higher price: its label stays on top.
    expect(left.get('BE')!).toBeLessThan(left.get('BUY 0.25')!);
    const axis = textYs(t.scene.markTexts);
    const [entry, be] = m.lines.map((l) => axis.get(m.formatPrice(l.price))!);
    expect(Math.abs(entry - be)).toBeGreaterThanOrEqual(LABEL_HEIGHT);
    expect(be).toBeLessThan(entry);
  });

  it('keep the last-price label clear on the axis, and lines apart keep their labels on the line', () => {
    const { t, range } = chartWith(({ lo, hi, last }) => [
      { id: 'near', kind: 'order', role: 'entry', side: 'buy', size: 1, price: Math.round((last - 0.1) * 10) / 10 },
      { id: 'far', kind: 'alert', price: Math.round((lo + (hi - lo) * 0.85) * 10) / 10 },
    ]);
    const m = t.controller.model;
    const axis = textYs(t.scene.markTexts);
    const lastY = m.priceScale.priceToY(range.last);
    const nearY = axis.get(m.formatPrice(m.lines[0].price))!;
    // The last price's label spans its price ± 9 px and the countdown under it (32 px in all).
    const lastTop = Math.round(lastY - LABEL_HEIGHT / 2);
    expect(nearY - LABEL_HEIGHT / 2).toBeGreaterThanOrEqual(lastTop + 32);
    const farY = m.priceScale.priceToY(m.lines[1].price);
    expect(axis.get(m.formatPrice(m.lines[1].price))).toBe(Math.round(farY - LABEL_HEIGHT / 2) + LABEL_HEIGHT / 2);
    expect(textYs(t.scene.lineTexts).get('Alert')).toBe(Math.round(farY - LABEL_HEIGHT / 2) + LABEL_HEIGHT / 2);
  });
});
