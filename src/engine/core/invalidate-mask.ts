/**
 * Invalidation levels, merged until the next paint (lightweight-charts' invalidate-mask):
 * - `cursor`: only the crosshair overlay changed (pointer move) — the series buffers are untouched;
 * - `light`: drawings, price lines, selection or the countdown changed — scales are unchanged;
 * - `full`: data, viewport, size or scales changed — everything is recomputed.
 */
export const InvalidationLevel = { none: 0, cursor: 1, light: 2, full: 3 } as const;
export type InvalidationLevel = (typeof InvalidationLevel)[keyof typeof InvalidationLevel];

export class InvalidateMask {
  private level: InvalidationLevel = InvalidationLevel.none;

  add(level: InvalidationLevel): void {
    if (level > this.level) this.level = level;
  }

  get current(): InvalidationLevel {
    return this.level;
  }

  /** Returns the merged level and resets the mask (called once per paint). */
  take(): InvalidationLevel {
    const l = this.level;
    this.level = InvalidationLevel.none;
    return l;
  }
}
