/**
 * Bucket arithmetic for every bar size any of the four exchanges offers. Exchange-neutral: each
 * exchange's format file maps its own interval names (`1h`, `60`, `1H`, `1Dutc`...) to a spec here.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * `fixed`: buckets of `ms` aligned so that `anchorMs` (UTC) is a boundary — 0 for epoch alignment,
 * 4 days for Monday-aligned weeks (1970-01-01 was a Thursday), −8 h for OKX's UTC+8 days.
 * `month`: calendar months in the time zone `tzOffsetMs` east of UTC (OKX `1M` = UTC+8).
 */
export type BucketSpec =
  | { kind: 'fixed'; ms: number; anchorMs: number }
  | { kind: 'month'; months: number; tzOffsetMs: number };

export const fixed = (ms: number, anchorMs = 0): BucketSpec => ({ kind: 'fixed', ms, anchorMs });
export const minutes = (n: number): BucketSpec => fixed(n * MINUTE_MS);
export const hours = (n: number, tzOffsetMs = 0): BucketSpec => fixed(n * HOUR_MS, -tzOffsetMs);
export const days = (n: number, tzOffsetMs = 0): BucketSpec => fixed(n * DAY_MS, -tzOffsetMs);
/** Weeks open on Monday 00:00 in the given zone. */
export const weeks = (tzOffsetMs = 0): BucketSpec => fixed(7 * DAY_MS, 4 * DAY_MS - tzOffsetMs);
export const months = (n = 1, tzOffsetMs = 0): BucketSpec => ({ kind: 'month', months: n, tzOffsetMs });

/** Open time of the bucket containing `t`. */
export function bucketStart(spec: BucketSpec, t: number): number {
  if (spec.kind === 'fixed') {
    return Math.floor((t - spec.anchorMs) / spec.ms) * spec.ms + spec.anchorMs;
  }
  const local = new Date(t + spec.tzOffsetMs);
  const monthIndex = local.getUTCFullYear() * 12 + local.getUTCMonth();
  const aligned = Math.floor(monthIndex / spec.months) * spec.months;
  return Date.UTC(Math.floor(aligned / 12), aligned % 12, 1) - spec.tzOffsetMs;
}

/** Open time of the bucket after the one opening at `start` (= this bucket's exclusive end). */
export function bucketEnd(spec: BucketSpec, start: number): number {
  if (spec.kind === 'fixed') return start + spec.ms;
  const local = new Date(start + spec.tzOffsetMs);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + spec.months, 1) - spec.tzOffsetMs;
}

/** Open time of the bucket before the one opening at `start`. */
export function bucketPrev(spec: BucketSpec, start: number): number {
  if (spec.kind === 'fixed') return start - spec.ms;
  const local = new Date(start + spec.tzOffsetMs);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - spec.months, 1) - spec.tzOffsetMs;
}

/** A nominal duration, for limits and rough sizing only (months count as 30 days). */
export function nominalMs(spec: BucketSpec): number {
  return spec.kind === 'fixed' ? spec.ms : spec.months * 30 * DAY_MS;
}
