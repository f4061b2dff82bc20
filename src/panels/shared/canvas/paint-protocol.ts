/** Messages between the canvas panels and their paint worker (`paint-worker.ts`). */
export interface FrameMessage {
  id: number;
  ops: Float64Array;
  n: number;
  fresh: string[];
}

/** The frames of every canvas drawn since the last message go in one message (one per animation frame, not one per panel). */
export type ToPaintWorker = { type: 'attach'; id: number; canvas: OffscreenCanvas } | { type: 'detach'; id: number } | { type: 'frames'; frames: FrameMessage[] };

/** The frames' buffers, back to be recorded into again. */
export type FromPaintWorker = { type: 'buffers'; buffers: Float64Array[] };
