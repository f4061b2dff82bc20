import { describe, expect, it } from 'vitest';
import { createTestChart } from '../../../tests/harness/test-chart';
import type { PositionPlan } from '../types';

/** A test chart with the position tool on, and what it reported. */
function positionChart() {
  const t = createTestChart();
  const reported: Array<PositionPlan | null> = [];
  t.controller.events.on('positionChanged', (p) => reported.push(p));
  t.controller.setTool('position');
  const ctx = t.controller.ctx();
  const y = (price: number) => ctx.priceToY(price);
  const price = (py: number) => ctx.roundPrice(ctx.yToPrice(py));
  const x = ctx.timeToX(t.candles[t.candles.length - 40].time);
  return { t, reported, y, price, x };
}

describe('position tool', () => {
  it('click at the stop, click at the entry: a long with targets at 1R, 2R, 3R', () => {
    const { t, reported, price, x } = positionChart();
    expect(t.state()).toBe('position.idle');
    t.click(x, 300);
    expect(t.state()).toBe('position.awaiting_entry');
    expect(reported).toHaveLength(0);
    t.move(x + 30, 200);
    // The entry follows the pointer before the second click, without telling the app.
    expect(t.controller.model.position?.entry).toBe(price(200));
    expect(reported).toHaveLength(0);
    t.click(x + 30, 220);
    expect(t.state()).toBe('position.placed');
    const plan = reported.at(-1);
    const stop = price(300);
    const entry = price(220);
    expect(plan).toMatchObject({ side: 'long', stop, entry, time: t.candles[t.candles.length - 40].time });
    const round = t.controller.ctx().roundPrice;
    expect(plan?.targets).toEqual([1, 2, 3].map((r) => round(entry + (entry - stop) * r)));
    expect(t.controller.getPosition()).toEqual(plan);
  });

  it('a stop above the entry is a short, its targets below', () => {
    const { t, reported, x } = positionChart();
    t.click(x, 150);
    t.click(x, 250);
    const plan = reported.at(-1);
    expect(plan?.side).toBe('short');
    expect(plan && plan.targets.every((tp) => tp < plan.entry)).toBe(true);
  });

  it('a drag from the entry to the stop places the position on release', () => {
    const { t, reported, price, x } = positionChart();
    t.down(x, 200);
    t.move(x, 220);
    expect(t.state()).toBe('position.dragging_from_entry');
    t.move(x, 280);
    t.up(x, 280);
    expect(t.state()).toBe('position.placed');
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ entry: price(200), stop: price(280), side: 'long' });
  });

  it('uses the targets the app passes', () => {
    const { t, reported, x } = positionChart();
    t.controller.setPositionOptions({ targets: [1.5] });
    t.click(x, 300);
    t.click(x, 200);
    const plan = reported.at(-1)!;
    expect(plan.targets).toHaveLength(1);
    expect((plan.targets[0] - plan.entry) / (plan.entry - plan.stop)).toBeCloseTo(1.5, 1);
  });

  it('a second click at the stop price waits for another entry', () => {
    const { t, reported, x } = positionChart();
    t.click(x, 300);
    t.click(x + 20, 300);
    expect(t.state()).toBe('position.awaiting_entry');
    expect(t.controller.getPosition()).toBeNull();
    expect(reported).toHaveLength(0);
  });

  it('drags the stop, the entry and a target by their lines; the app hears on release only', () => {
    const { t, reported, y, price, x } = positionChart();
    t.click(x, 300);
    t.click(x, 220);
    const placed = reported.at(-1)!;
    t.down(x + 100, y(placed.stop));
    expect(t.state()).toBe('position.dragging_level');
    t.move(x + 100, 330);
    expect(reported).toHaveLength(1);
    t.up(x + 100, 330);
    expect(t.state()).toBe('position.placed');
    expect(reported.at(-1)).toMatchObject({ stop: price(330), entry: placed.entry, targets: placed.targets });

    t.drag(x + 50, y(placed.targets[0]), x + 50, y(placed.targets[0]) - 15);
    expect(reported.at(-1)?.targets[0]).toBe(price(y(placed.targets[0]) - 15));

    t.drag(x + 50, y(placed.entry), x + 50, y(placed.entry) + 10);
    expect(reported.at(-1)?.entry).toBe(price(y(placed.entry) + 10));
  });

  it('refuses a drag that would put the stop past the entry: the last valid stop stays', () => {
    const { t, reported, y, x } = positionChart();
    t.click(x, 300);
    t.click(x, 220);
    const placed = reported.at(-1)!;
    t.down(x + 50, y(placed.stop));
    t.move(x + 50, 250);
    t.move(x + 50, 150);
    t.up(x + 50, 150);
    const plan = reported.at(-1)!;
    expect(plan.side).toBe('long');
    expect(plan.stop).toBeLessThan(plan.entry);
    expect(plan.stop).toBe(t.controller.ctx().roundPrice(t.controller.ctx().yToPrice(250)));
  });

  it('a drag away from the levels pans the chart and keeps the position', () => {
    const { t, reported, x } = positionChart();
    t.click(x, 300);
    t.click(x, 220);
    const before = t.controller.getVisibleRange().from;
    // Below the stop: no level there.
    t.drag(x + 100, 400, x + 180, 400);
    expect(t.state()).toBe('position.placed');
    expect(t.controller.getVisibleRange().from).not.toBe(before);
    expect(t.controller.getPosition()).toEqual(reported.at(-1));
  });

  it('Escape clears the position, reports null and goes back to Select', () => {
    const { t, reported, x } = positionChart();
    const tools: string[] = [];
    t.controller.events.on('toolChanged', ({ tool }) => tools.push(tool));
    t.click(x, 300);
    t.click(x, 220);
    t.controller.cancel();
    expect(reported.at(-1)).toBeNull();
    expect(t.controller.getPosition()).toBeNull();
    expect(t.controller.model.position).toBeNull();
    expect(tools).toEqual(['default']);
    expect(t.state()).toBe('select.idle');
  });

  it('choosing the tool again keeps the position; another tool clears it', () => {
    const { t, reported, x } = positionChart();
    t.click(x, 300);
    t.click(x, 220);
    t.controller.setTool('position');
    expect(t.controller.getPosition()).not.toBeNull();
    t.controller.setTool('default');
    expect(t.controller.getPosition()).toBeNull();
    expect(reported.at(-1)).toBeNull();
  });

  it('draws the zones and the app’s labels', () => {
    const { t, x } = positionChart();
    t.controller.setPositionOptions({ labels: (p) => ({ entry: `Long 0.5 @ ${p.entry}`, targets: p.targets.map((_, i) => `TP${i + 1}`) }) });
    t.click(x, 300);
    t.click(x, 220);
    t.paint();
    const texts = t.scene.drawingTexts.items.slice(0, t.scene.drawingTexts.count).map((i) => i.text);
    expect(texts.some((s) => s.startsWith('Long 0.5 @'))).toBe(true);
    expect(texts).toEqual(expect.arrayContaining(['TP1', 'TP2', 'TP3']));
    expect(texts.some((s) => s.startsWith('Stop '))).toBe(true);
  });
});
