import { BUFFER_NUMBERS, RecordingContext } from './draw-ops';
import type { FrameMessage, FromPaintWorker, ToPaintWorker } from './paint-protocol';

/** Buffers back from the worker, recorded into again (a few: the panels' frames in flight). */
const free: Float64Array[] = [];
let worker: Worker | null | undefined;
let nextId = 1;
/** A canvas gone (its panel closed): the worker lets its offscreen canvas go too. */
const registry = typeof FinalizationRegistry === 'undefined' ? null : new FinalizationRegistry<number>((id) => post({ type: 'detach', id }));

function post(m: ToPaintWorker, transfer: Transferable[] = []): void {
  worker?.postMessage(m, transfer);
}

/** The one paint worker of the page (made on first use); null where none can be made. */
function paintWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./paint-worker.ts', import.meta.url), { type: 'module', name: 'canvas panels' });
    worker.onmessage = (e: MessageEvent<FromPaintWorker>) => {
      for (const b of e.data.buffers) if (free.length < 8) free.push(b);
    };
    // Not swallowed: a worker that cannot load or throws leaves its canvases blank, and says why in the console.
    worker.onerror = (e: ErrorEvent) => console.error(`The canvas panels' paint worker failed: ${e.message}`);
  } catch {
    worker = null;
  }
  return worker;
}

/** True where a panel's canvas can be drawn by the paint worker: a browser with offscreen canvases and workers (not jsdom). */
export function canPaintRemotely(canvas: HTMLCanvasElement): boolean {
  return typeof canvas.transferControlToOffscreen === 'function' && typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof document !== 'undefined';
}

/**
 * Hands `canvas` to the paint worker and answers the context its painter draws on: a recording, sent to the
 * worker once the painter is done (a microtask after its first call) and replayed there. Null where that cannot
 * be (the caller then draws on the canvas itself). A canvas is handed over once, for good.
 */
export function remoteContext(canvas: HTMLCanvasElement): RecordingContext | null {
  if (!canPaintRemotely(canvas)) return null;
  const w = paintWorker();
  if (!w) return null;
  let offscreen: OffscreenCanvas;
  try {
    offscreen = canvas.transferControlToOffscreen();
  } catch {
    return null;
  }
  const id = nextId++;
  post({ type: 'attach', id, canvas: offscreen }, [offscreen]);
  const ctx = new RecordingContext(canvas, document.createElement('canvas').getContext('2d'), () => {
    drawn.push({ id, ctx });
    if (drawn.length === 1) queueMicrotask(sendAll);
  });
  registry?.register(canvas, id);
  return ctx;
}

/** The canvases drawn since the last message, sent together once the painters of this task are done. */
const drawn: Array<{ id: number; ctx: RecordingContext }> = [];

function sendAll(): void {
  const frames: FrameMessage[] = [];
  const transfer: Transferable[] = [];
  for (const { id, ctx } of drawn) {
    if (ctx.empty) continue;
    const f = ctx.take(free.pop() ?? new Float64Array(BUFFER_NUMBERS));
    frames.push({ id, ops: f.ops, n: f.n, fresh: f.fresh });
    transfer.push(f.ops.buffer);
  }
  drawn.length = 0;
  if (frames.length) post({ type: 'frames', frames }, transfer);
}
