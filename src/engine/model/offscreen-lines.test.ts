import { describe, expect, it } from 'vitest';
import { lineEdge, MARKER_INSET, markerOrder, markerTop, REVEAL_MARGIN, REVEAL_MAX_ZOOM_OUT, revealRange } from './offscreen-lines';

describe('off-screen price lines', () => {
  it('pins a line above the plot to the top edge and one below to the bottom', () => {
    expect(lineEdge(-0.5, 0, 474)).toBe('above');
    expect(lineEdge(474.5, 0, 474)).toBe('below');
    expect(lineEdge(0, 0, 474)).toBeNull();
    expect(lineEdge(474, 0, 474)).toBeNull();
  });

  it('stacks markers from the edge inwards in price order', () => {
    const lines = [
      { id: 'tp1', price: 110 },
      { id: 'tp2', price: 120 },
      { id: 'alert', price: 110 },
    ];
    // At the top the highest price sits at the edge; at the bottom the lowest.
    expect(markerOrder(lines, 'above').map((l) => l.id)).toEqual(['tp2', 'tp1', 'alert']);
    expect(markerOrder(lines, 'below').map((l) => l.id)).toEqual(['alert', 'tp1', 'tp2']);
    expect(markerTop('above', 0, 18, 0, 474)).toBe(MARKER_INSET);
    expect(markerTop('above', 1, 18, 0, 474)).toBeGreaterThanOrEqual(MARKER_INSET + 18);
    expect(markerTop('below', 0, 18, 0, 474)).toBe(474 - MARKER_INSET - 18);
    expect(markerTop('below', 1, 18, 0, 474) + 18).toBeLessThanOrEqual(474 - MARKER_INSET - 18);
  });

  it('widens the range on the line side so the line lands inside with a margin and what was in view stays', () => {
    const height = 474;
    const below = revealRange(100, 110, 97, height)!;
    expect(below.hi).toBe(110);
    expect(below.lo).toBeLessThan(97);
    expect((97 - below.lo) / (below.hi - below.lo)).toBeCloseTo(REVEAL_MARGIN, 9);
    const above = revealRange(100, 110, 113, height)!;
    expect(above.lo).toBe(100);
    expect((above.hi - 113) / (above.hi - above.lo)).toBeCloseTo(REVEAL_MARGIN, 9);
  });

  it('moves the range to a line too far to widen for, keeping its span', () => {
    const r = revealRange(100, 110, 10, 474)!;
    expect(r.hi - r.lo).toBeCloseTo(10, 9);
    expect(10 - r.lo).toBeCloseTo(10 * REVEAL_MARGIN, 9);
    // The threshold: widening up to REVEAL_MAX_ZOOM_OUT × the span is allowed.
    const near = revealRange(100, 110, 100 - 10 * (REVEAL_MAX_ZOOM_OUT - 3), 474)!;
    expect(near.hi).toBe(110);
  });

  it('keeps at least 40 px of margin on a short plot, and does nothing for a line already inside', () => {
    const r = revealRange(100, 110, 95, 100)!;
    expect(((95 - r.lo) / (r.hi - r.lo)) * 100).toBeCloseTo(40, 6);
    expect(revealRange(100, 110, 105, 474)).toBeNull();
  });
});
