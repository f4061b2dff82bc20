/// <reference lib="webworker" />
/**
 * The worker that draws the canvas panels (Order book, Trades tape, DOM ladder: issue 25 §2). Each panel's
 * canvas is handed over once (`transferControlToOffscreen`); then every frame the panel's painter recorded on
 * the main thread (`draw-ops.ts`) is replayed here — text shaping and rasterising off the main thread — and
 * its buffer goes back to be recorded into again.
 */
import { replay, type ReplayTarget } from './draw-ops';
import type { ToPaintWorker } from './paint-protocol';

interface Target {
  canvas: OffscreenCanvas;
  ctx: OffscreenCanvasRenderingContext2D | null;
  table: string[];
}

const targets = new Map<number, Target>();
const scope = self as unknown as DedicatedWorkerGlobalScope;

const contextOf = (t: Target) => () => {
  t.ctx ??= t.canvas.getContext('2d', { alpha: false });
  return t.ctx as unknown as ReplayTarget;
};

scope.onmessage = (e: MessageEvent<ToPaintWorker>) => {
  const m = e.data;
  if (m.type === 'attach') {
    targets.set(m.id, { canvas: m.canvas, ctx: null, table: [] });
  } else if (m.type === 'detach') {
    targets.delete(m.id);
  } else {
    const buffers: Float64Array[] = [];
    for (const f of m.frames) {
      const t = targets.get(f.id);
      if (t) replay(t.canvas, contextOf(t), f.ops, f.n, t.table, f.fresh);
      buffers.push(f.ops);
    }
    // The buffers go back to be recorded into again (nothing is allocated per frame in steady state).
    scope.postMessage({ type: 'buffers', buffers }, buffers.map((b) => b.buffer));
  }
};
