/**
 * Per-frame accounting shared by both charts. Every requestAnimationFrame callback on the page
 * (the charts paint in rAF) is timed by a wrapper installed before any chart exists; a driver
 * callback, first in each frame, applies one step (pan, zoom, live update) and records the
 * previous frame's main-thread work and the interval between frames (which includes
 * rasterisation: the next frame cannot start before the GPU process finished the last one).
 */
const nativeRaf = window.requestAnimationFrame.bind(window);
let frameWork = 0;

window.requestAnimationFrame = (cb: FrameRequestCallback): number =>
  nativeRaf((ts) => {
    const t0 = performance.now();
    try {
      cb(ts);
    } finally {
      frameWork += performance.now() - t0;
    }
  });

export interface FrameSamples {
  /** Main-thread ms per frame (the step itself + every rAF callback of that frame). */
  work: number[];
  /** ms between consecutive frames. */
  interval: number[];
  /** Steps actually run (a time budget can stop a slow chart early). */
  steps: number;
}

/** Runs `count` steps, one per frame, within `budgetMs`. */
export function runFrames(count: number, step: (i: number) => void, budgetMs = 60_000): Promise<FrameSamples> {
  return new Promise((resolve) => {
    const work: number[] = [];
    const interval: number[] = [];
    const started = performance.now();
    let i = 0;
    let lastTs = -1;
    let stopping = false;
    const tick = (ts: number): void => {
      // Frame 0 held only the first step (its paint comes a frame later): skip its sample.
      if (i >= 2 && !stopping) {
        work.push(frameWork);
        interval.push(ts - lastTs);
      }
      frameWork = 0;
      lastTs = ts;
      if (stopping) {
        resolve({ work, interval, steps: i });
        return;
      }
      window.requestAnimationFrame(tick);
      if (i >= count || performance.now() - started > budgetMs) {
        // One more frame so the last paint runs before the next measurement starts.
        stopping = true;
        return;
      }
      step(i++);
    };
    window.requestAnimationFrame(tick);
  });
}

/** Resolves inside the next frame's callbacks, after any paint already requested. */
export function nextFrame(): Promise<number> {
  return new Promise((resolve) => nativeRaf((ts) => resolve(ts)));
}

export async function settle(frames = 3): Promise<void> {
  for (let i = 0; i < frames; i++) await nextFrame();
}

export function resetFrameWork(): number {
  const w = frameWork;
  frameWork = 0;
  return w;
}

export function stats(values: number[]): { median: number; p95: number; n: number } {
  if (!values.length) return { median: Number.NaN, p95: Number.NaN, n: 0 };
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { median: q(0.5), p95: q(0.95), n: s.length };
}
