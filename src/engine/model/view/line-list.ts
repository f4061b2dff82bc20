import type { Rgba } from '../../core/colors';

/** Floats per point: x, y (device px), colour (packed, read as unorm8x4). */
export const LINE_STRIDE = 3;
/** A point with this y (or below) breaks the polyline: segments touching it are not drawn. */
export const LINE_BREAK_Y = -1e30;

/**
 * Polylines of one layer as one point list, in the layout the GPU reads: the renderer draws
 * segment i from point i to point i + 1 (one instanced draw for every line), so a line costs
 * 12 bytes per point instead of a primitive per segment. Lines are separated by a break point; the
 * segment's colour is its first point's.
 */
export class LineList {
  data = new Float32Array(LINE_STRIDE * 1024);
  private u32 = new Uint32Array(this.data.buffer);
  count = 0;
  /** Line width in device px. */
  width = 1;
  version = 0;

  begin(width: number): void {
    this.count = 0;
    this.width = width;
    this.version++;
  }

  /** A point in device px. */
  point(x: number, y: number, color: Rgba): void {
    if ((this.count + 1) * LINE_STRIDE > this.data.length) this.grow();
    const o = this.count * LINE_STRIDE;
    this.data[o] = x;
    this.data[o + 1] = y;
    // unorm8x4 reads bytes r,g,b,a in memory order; typed arrays are little-endian.
    this.u32[o + 2] = (((color & 255) << 24) | (((color >>> 8) & 255) << 16) | (((color >>> 16) & 255) << 8) | (color >>> 24)) >>> 0;
    this.count++;
  }

  /** Ends the current line (no-op at the start or after another break). */
  break(): void {
    if (this.count === 0 || this.data[(this.count - 1) * LINE_STRIDE + 1] <= LINE_BREAK_Y) return;
    this.point(0, LINE_BREAK_Y, 0);
  }

  private grow(): void {
    const next = new Float32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
    this.u32 = new Uint32Array(next.buffer);
  }
}
