import type { Rgba } from '../../core/colors';

/** Floats per primitive instance (the renderer's vertex layout mirrors this). */
export const PRIM_STRIDE = 10;
export const PrimKind = { rect: 0, segment: 1, circle: 2 } as const;

/**
 * Screen-space primitives for one layer, written straight into the instance layout the GPU reads
 * (device pixels, colours packed), so the renderer uploads the array as is. Axis-aligned edges are
 * snapped to device pixels here: a 1 px grid line covers exactly one pixel row at any dpr.
 *
 * Layout per instance: x1 y1 x2 y2 kind width dash gap color color2
 * (rect: left top right bottom; segment: endpoints; circle: cx cy radius).
 */
export class PrimitiveList {
  data = new Float32Array(PRIM_STRIDE * 256);
  private u32 = new Uint32Array(this.data.buffer);
  count = 0;
  dpr = 1;
  /** Bumped on every `begin()`, so the renderer uploads only lists that were rebuilt. */
  version = 0;

  begin(dpr: number): void {
    this.dpr = dpr;
    this.count = 0;
    this.version++;
  }

  /** Filled rectangle in CSS px, edges snapped to device pixels (min 1 device px). */
  rect(x: number, y: number, w: number, h: number, color: Rgba): void {
    const d = this.dpr;
    const l = Math.round(x * d);
    const t = Math.round(y * d);
    const r = Math.max(l + 1, Math.round((x + w) * d));
    const b = Math.max(t + 1, Math.round((y + h) * d));
    this.push(l, t, r, b, PrimKind.rect, 0, 0, 0, color, 0);
  }

  /** Horizontal line `width` CSS px thick centred on y; optionally dashed (CSS px). */
  hline(x1: number, x2: number, y: number, width: number, color: Rgba, dash = 0, gap = 0): void {
    const d = this.dpr;
    const w = Math.max(1, Math.round(width * d));
    const t = Math.round(y * d - w / 2);
    if (dash > 0) {
      this.push(Math.round(x1 * d), t + w / 2, Math.round(x2 * d), t + w / 2, PrimKind.segment, w, dash * d, gap * d, color, 0);
    } else {
      this.push(Math.round(x1 * d), t, Math.round(x2 * d), t + w, PrimKind.rect, 0, 0, 0, color, 0);
    }
  }

  vline(x: number, y1: number, y2: number, width: number, color: Rgba, dash = 0, gap = 0): void {
    const d = this.dpr;
    const w = Math.max(1, Math.round(width * d));
    const l = Math.round(x * d - w / 2);
    if (dash > 0) {
      this.push(l + w / 2, Math.round(y1 * d), l + w / 2, Math.round(y2 * d), PrimKind.segment, w, dash * d, gap * d, color, 0);
    } else {
      this.push(l, Math.round(y1 * d), l + w, Math.round(y2 * d), PrimKind.rect, 0, 0, 0, color, 0);
    }
  }

  /** Anti-aliased line between two points (CSS px). */
  segment(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgba, dash = 0, gap = 0): void {
    const d = this.dpr;
    this.push(x1 * d, y1 * d, x2 * d, y2 * d, PrimKind.segment, Math.max(1, width * d), dash * d, gap * d, color, 0);
  }

  /** Anti-aliased disc with an optional border (CSS px). */
  circle(cx: number, cy: number, radius: number, fill: Rgba, border: Rgba, borderWidth: number): void {
    const d = this.dpr;
    this.push(cx * d, cy * d, radius * d, 0, PrimKind.circle, borderWidth * d, 0, 0, fill, border);
  }

  /** Rectangle outline (four snapped 1-px-ish edges). */
  strokeRect(x: number, y: number, w: number, h: number, width: number, color: Rgba): void {
    this.hline(x, x + w, y, width, color);
    this.hline(x, x + w, y + h, width, color);
    this.vline(x, y, y + h, width, color);
    this.vline(x + w, y, y + h, width, color);
  }

  /** Colour of primitive `i`. */
  colorAt(i: number): Rgba {
    return toLittleEndianRgba(this.u32[i * PRIM_STRIDE + 8]);
  }

  /** Recolours primitive `i` in place (e.g. hides it with alpha 0) and marks the list for upload. */
  setColor(i: number, color: Rgba): void {
    this.u32[i * PRIM_STRIDE + 8] = toLittleEndianRgba(color);
    this.version++;
  }

  private push(a: number, b: number, c: number, e: number, kind: number, width: number, dash: number, gap: number, color: Rgba, color2: Rgba): void {
    if ((this.count + 1) * PRIM_STRIDE > this.data.length) this.grow();
    const o = this.count * PRIM_STRIDE;
    const f = this.data;
    f[o] = a;
    f[o + 1] = b;
    f[o + 2] = c;
    f[o + 3] = e;
    f[o + 4] = kind;
    f[o + 5] = width;
    f[o + 6] = dash;
    f[o + 7] = gap;
    // The GPU reads the colour as unorm8x4 in memory order r,g,b,a; typed arrays are little-endian.
    this.u32[o + 8] = toLittleEndianRgba(color);
    this.u32[o + 9] = toLittleEndianRgba(color2);
    this.count++;
  }

  private grow(): void {
    const next = new Float32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
    this.u32 = new Uint32Array(next.buffer);
  }
}

/** Swaps 0xRRGGBBAA into the byte order the GPU reads (its own inverse). */
export function toLittleEndianRgba(c: Rgba): number {
  return (((c & 255) << 24) | (((c >>> 8) & 255) << 16) | (((c >>> 16) & 255) << 8) | (c >>> 24)) >>> 0;
}

export interface TextItem {
  text: string;
  x: number;
  y: number;
  color: Rgba;
  /** 0 left, 0.5 centre, 1 right. */
  ax: number;
  /** 0 top, 0.5 middle, 1 bottom. */
  ay: number;
}

/** Labels of one layer (CSS px); the renderer keeps a pool of BitmapTexts and reuses them by slot. */
export class TextList {
  items: TextItem[] = [];
  count = 0;
  version = 0;

  begin(): void {
    this.count = 0;
    this.version++;
  }

  add(text: string, x: number, y: number, color: Rgba, ax = 0, ay = 0): void {
    const slot = this.items[this.count];
    if (slot) {
      slot.text = text;
      slot.x = x;
      slot.y = y;
      slot.color = color;
      slot.ax = ax;
      slot.ay = ay;
    } else {
      this.items.push({ text, x, y, color, ax, ay });
    }
    this.count++;
  }

  /** Recolours the label in `slot` in place (same string: no new text layout) and marks the list changed. */
  setColor(slot: number, color: Rgba): void {
    this.items[slot].color = color;
    this.version++;
  }
}

/** Width of a label in CSS px (the renderer measures with the bitmap font; tests use an estimate). */
export type MeasureText = (text: string) => number;

export const estimateTextWidth =
  (fontSize: number): MeasureText =>
  (text) =>
    text.length * fontSize * 0.62;
