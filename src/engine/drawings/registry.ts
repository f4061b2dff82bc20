import { fibonacciUtil } from './fibonacci/util';
import { horizontalLineUtil } from './horizontal-line/util';
import type { Drawing, DrawingKind } from './records';
import { rectangleUtil } from './rectangle/util';
import type { DrawingUtil } from './types';

const utils: { [K in DrawingKind]: DrawingUtil<Extract<Drawing, { kind: K }>> } = {
  line: horizontalLineUtil,
  rectangle: rectangleUtil,
  'fib-retracement': fibonacciUtil,
};

/** The util for a record, typed loosely so callers can work on the Drawing union. */
export function utilOf(d: Drawing): DrawingUtil<Drawing> {
  return utils[d.kind] as unknown as DrawingUtil<Drawing>;
}

/** Applies a partial update without mutating the record (unknown app fields are kept). */
export function applyPartial(d: Drawing, partial: Partial<Drawing>): Drawing {
  return { ...d, ...partial } as Drawing;
}
