import { describe, expect, it } from 'vitest';
import { generateCandles } from '../../../tests/harness/ohlcv';
import { createTestChart } from '../../../tests/harness/test-chart';
import type { ChartOptions } from '../types';
import { MAX_PREFETCH_BARS, prefetchDistance, shouldRequestHistory, showsHistoryLoading } from './history-prefetch';

const view = (from: number, to: number, extra: Partial<Parameters<typeof shouldRequestHistory>[0]> = {}) => ({
  from,
  to,
  count: 10_000,
  loading: false,
  exhausted: false,
  ...extra,
});

describe('history prefetch decision', () => {
  it('asks when fewer than two screens of bars are left of the view', () => {
    // 100 bars on screen: ask from 200 bars before the oldest on.
    expect(prefetchDistance(100)).toBe(200);
    expect(shouldRequestHistory(view(201, 301))).toBe(false);
    expect(shouldRequestHistory(view(200, 300))).toBe(true);
    expect(shouldRequestHistory(view(200, 300), { prefetchScreens: 1 })).toBe(false);
  });

  it('asks at least within the threshold, and at most 2,000 bars ahead when zoomed far out', () => {
    expect(prefetchDistance(10)).toBe(50);
    expect(prefetchDistance(10, { thresholdBars: 80 })).toBe(80);
    expect(prefetchDistance(50_000)).toBe(MAX_PREFETCH_BARS);
    expect(shouldRequestHistory(view(2001, 52_001))).toBe(false);
  });

  it('never asks without bars, while a page is on its way, or after the exchange said "no more"', () => {
    expect(shouldRequestHistory(view(0, 100, { count: 0 }))).toBe(false);
    expect(shouldRequestHistory(view(0, 100, { loading: true }))).toBe(false);
    expect(shouldRequestHistory(view(0, 100, { exhausted: true }))).toBe(false);
  });

  it('shows "Loading history…" only when the oldest bar is within half a screen while loading', () => {
    expect(showsHistoryLoading({ from: 49, to: 149, loading: true })).toBe(true);
    expect(showsHistoryLoading({ from: 51, to: 151, loading: true })).toBe(false);
    expect(showsHistoryLoading({ from: -20, to: 80, loading: false })).toBe(false);
  });
});

/**
 * Pans back through history at 60 frames per second while pages arrive `latencyMs` after each
 * request, and reports how many frames showed the loading indicator and how many pages came.
 */
function panBack(options: ChartOptions, screensPerSecond: number, latencyMs: number, seconds: number) {
  const t = createTestChart({ bars: 300, width: 800, options });
  const older = generateCandles({ count: 20_000, seed: 2, endTime: t.candles[0].time - 60 });
  const pending: Array<{ frame: number }> = [];
  let pages = 0;
  t.controller.events.on('needHistory', () => pending.push({ frame: frame + Math.ceil((latencyMs / 1000) * 60) }));
  let frame = 0;
  let indicatorFrames = 0;
  const pxPerFrame = (t.controller.model.pane.width * screensPerSecond) / 60;
  for (; frame < seconds * 60; frame++) {
    if (pending.length && pending[0].frame <= frame) {
      pending.shift();
      t.controller.prependCandles(older.splice(Math.max(0, older.length - 300), 300));
      pages++;
    }
    t.controller.panBy(pxPerFrame, 0);
    t.paint();
    t.controller.checkHistory();
    const texts = t.scene.markTexts.items.slice(0, t.scene.markTexts.count).map((i) => i.text);
    if (texts.includes('Loading history…')) indicatorFrames++;
  }
  return { indicatorFrames, pages };
}

describe('panning back through history', () => {
  // A brisk pan (two screens a second) against pages that take 300 ms — a real exchange over the
  // internet; the simulator answers in a few ms.
  it('never shows the loading indicator at a normal pan speed: the next page is fetched ahead', () => {
    const { indicatorFrames, pages } = panBack({}, 2, 300, 8);
    expect(pages).toBeGreaterThanOrEqual(4);
    expect(indicatorFrames).toBe(0);
  });

  it('did show it when a page was requested only at the edge (the 50-bar threshold alone)', () => {
    const { indicatorFrames } = panBack({ historyPrefetchScreens: 0 }, 2, 300, 8);
    expect(indicatorFrames).toBeGreaterThan(0);
  });
});
