/**
 * When to ask for older bars, and when to say that they are loading. Two distances, on purpose:
 * the request goes out early — `prefetchScreens` screens of bars before the user reaches the oldest
 * bar — so at a normal pan speed the page is in before it is needed; the "Loading history…"
 * indicator shows only when the user has actually come close to the edge while a page is still on
 * its way (half a screen), so a prefetch is invisible.
 */

/** Upper bound on the prefetch distance: zoomed far out, two screens could be 100,000 bars (hundreds of pages). */
export const MAX_PREFETCH_BARS = 2000;
export const DEFAULT_PREFETCH_SCREENS = 2;
export const DEFAULT_HISTORY_THRESHOLD = 50;

export interface HistoryView {
  /** Visible logical range (bar 0 = the oldest loaded bar). */
  from: number;
  to: number;
  /** Bars loaded. */
  count: number;
  /** A page was asked for and has not arrived. */
  loading: boolean;
  /** An empty page arrived: the exchange has nothing older. */
  exhausted: boolean;
}

export interface PrefetchOptions {
  /** Always ask within this many bars of the oldest one. */
  thresholdBars?: number;
  /** Ask when fewer than this many screens of bars are left of the view. */
  prefetchScreens?: number;
}

/** Bars left of the view below which the next page is requested. */
export function prefetchDistance(span: number, o: PrefetchOptions = {}): number {
  const threshold = o.thresholdBars ?? DEFAULT_HISTORY_THRESHOLD;
  const screens = o.prefetchScreens ?? DEFAULT_PREFETCH_SCREENS;
  return Math.max(threshold, Math.min(MAX_PREFETCH_BARS, screens * Math.max(0, span)));
}

/** Whether to emit `needHistory` now (at most one page in flight; never after "no more"). */
export function shouldRequestHistory(v: HistoryView, o: PrefetchOptions = {}): boolean {
  if (v.count === 0 || v.loading || v.exhausted) return false;
  return v.from <= prefetchDistance(v.to - v.from, o);
}

/** Whether the loading indicator shows: a page is on its way and the oldest bar is within half a screen. */
export function showsHistoryLoading(v: Pick<HistoryView, 'from' | 'to' | 'loading'>): boolean {
  return v.loading && v.from < (v.to - v.from) / 2;
}
