// @vitest-environment jsdom
// Pixi reads `navigator` on import; nothing here touches a GPU (buffers and geometries are plain objects until rendered).
import { describe, expect, it, vi } from 'vitest';

// jsdom has no canvas contexts (and says so on every probe Pixi makes at import): answer "none" quietly.
vi.hoisted(() => {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
});
import { resolveTheme } from '../model/theme';
import { SERIES_STRIDE, type SeriesView } from '../model/scene';
import { toLittleEndianRgba } from '../model/view/primitive-list';
import { SeriesLayer } from './gpu-layers';
import { QuadGeometry } from './quads';

type Rect = [l: number, t: number, r: number, b: number, color: number];

/** The corners the former instanced candle shader (CANDLE_VERTEX) produced, part by part. */
function instancedReference(view: SeriesView, colors: { up: number; down: number; volUp: number; volDown: number }): { volume: Rect[]; candles: Rect[] } {
  const volume: Rect[] = [];
  const candles: Rect[] = [];
  const w = view.wickWidth;
  for (let c = 0; c < view.count; c++) {
    const [x, body, yO, yH, yL, yC, yV, up] = view.data.subarray(c * SERIES_STRIDE, (c + 1) * SERIES_STRIDE);
    const bodyLeft = x + (w - body) * 0.5;
    volume.push([bodyLeft, yV, bodyLeft + body, view.volumeBottom, up > 0.5 ? colors.volUp : colors.volDown]);
    const color = up > 0.5 ? colors.up : colors.down;
    candles.push([x, yH, x + w, yL + 1, color]);
    const top = Math.min(yO, yC);
    candles.push([bodyLeft, top, bodyLeft + body, Math.max(Math.max(yO, yC), top + 1), color]);
  }
  return { volume, candles };
}

/** Reads the quads back from the layer's vertex buffer (corners l,t · r,t · r,b · l,b). */
function quadsOf(layer: SeriesLayer): Rect[] {
  const geometry = (layer as unknown as { quads: QuadGeometry }).quads.geometry;
  const f32 = geometry.attributes.aPos.buffer.data as Float32Array;
  const u32 = new Uint32Array(f32.buffer);
  const out: Rect[] = [];
  for (let q = 0; q < geometry.indexCount / 6; q++) {
    const o = q * 12;
    expect([f32[o + 3], f32[o + 4], f32[o + 9], f32[o + 10]]).toEqual([f32[o + 6], f32[o + 1], f32[o], f32[o + 7]]);
    out.push([f32[o], f32[o + 1], f32[o + 6], f32[o + 7], u32[o + 2]]);
  }
  return out;
}

function view(wickWidth: number, columns: number[][]): SeriesView {
  const data = new Float32Array(columns.length * SERIES_STRIDE);
  columns.forEach((c, i) => data.set(c, i * SERIES_STRIDE));
  return { data, count: columns.length, version: 1, wickWidth, volumeBottom: 400, barsPerColumn: 1 };
}

describe('SeriesLayer (non-instanced quads)', () => {
  const theme = resolveTheme(undefined);
  const colors = { up: toLittleEndianRgba(theme.up), down: toLittleEndianRgba(theme.down), volUp: toLittleEndianRgba(theme.volumeUp), volDown: toLittleEndianRgba(theme.volumeDown) };

  it('draws the corners the instanced shader drew, in its order: every volume quad, then wick and body per column', () => {
    const layer = new SeriesLayer();
    layer.setTheme(theme);
    // x, body, yOpen, yHigh, yLow, yClose, yVolumeTop, up — 8 px bars, wick 1, body 5.
    const v = view(1, [
      [10, 5, 120, 100, 150, 140, 380, 0],
      [18, 5, 140, 130, 170, 135, 390, 1],
      [26, 5, 135, 135, 135, 135, 399, 1],
    ]);
    layer.sync(v, 800, 500);
    const ref = instancedReference(v, colors);
    expect(quadsOf(layer)).toEqual([...ref.volume, ...ref.candles]);
    expect(layer.quadCount).toBe(9);
    layer.destroy();
  });

  it('leaves out a body as wide as its wick (it lies inside the wick): two quads per 1 px column', () => {
    const layer = new SeriesLayer();
    layer.setTheme(theme);
    const v = view(1, [
      [0, 1, 120, 100, 150, 140, 380, 0],
      [1, 1, 140, 130, 170, 135, 390, 1],
    ]);
    layer.sync(v, 800, 500);
    const ref = instancedReference(v, colors);
    // The same pixels: the skipped bodies are covered by their wicks.
    expect(quadsOf(layer)).toEqual([...ref.volume, ref.candles[0], ref.candles[2]]);
    layer.destroy();
  });

  it('keeps a 1 px body that sticks out of its wick (open or close outside high–low in the data)', () => {
    const layer = new SeriesLayer();
    layer.setTheme(theme);
    const v = view(1, [[0, 1, 90, 100, 150, 140, 380, 0]]);
    layer.sync(v, 800, 500);
    const ref = instancedReference(v, colors);
    expect(quadsOf(layer)).toEqual([...ref.volume, ...ref.candles]);
    layer.destroy();
  });
});

describe('SeriesLayer.warmUp (the series program compiled before any data)', () => {
  const theme = resolveTheme(undefined);

  it('renders one quad covering no pixel, then draws nothing until data comes, and the first data draws what a cold layer draws', () => {
    const layer = new SeriesLayer();
    layer.setTheme(theme);
    const mesh = (layer as unknown as { mesh: { visible: boolean } }).mesh;
    const seen: Array<{ visible: boolean; quads: Rect[] }> = [];
    layer.warmUp(800, 500, () => seen.push({ visible: mesh.visible, quads: quadsOf(layer) }));
    expect(seen).toHaveLength(1);
    expect(seen[0].visible).toBe(true);
    expect(seen[0].quads).toHaveLength(1);
    const [l, t, r, b] = seen[0].quads[0];
    expect((r - l) * (b - t)).toBe(0);
    expect(mesh.visible).toBe(false);
    expect(quadsOf(layer)).toEqual([]);

    const cold = new SeriesLayer();
    cold.setTheme(theme);
    const v = view(1, [
      [10, 5, 120, 100, 150, 140, 380, 0],
      [18, 5, 140, 130, 170, 135, 390, 1],
    ]);
    layer.sync(v, 800, 500);
    cold.sync(v, 800, 500);
    expect(mesh.visible).toBe(true);
    expect(quadsOf(layer)).toEqual(quadsOf(cold));
    expect(layer.pixels).toBe(cold.pixels);
    layer.destroy();
    cold.destroy();
  });
});

describe('QuadGeometry', () => {
  it('copies each record into its four vertices bit for bit (packed colours that are NaN as floats too)', () => {
    const q = new QuadGeometry(3, { aA: { format: 'float32x2', offset: 0 }, aColor: { format: 'unorm8x4', offset: 8 } }, true, 2);
    const src = new Float32Array(6);
    const srcU32 = new Uint32Array(src.buffer);
    src.set([1.5, 2.5], 0);
    srcU32[2] = 0xff80ff7f; // a signalling-NaN pattern as a float
    src.set([3, 4], 3);
    srcU32[5] = 0xffffffff;
    q.replicate(src, 2);
    q.commit(2);
    const out = new Uint32Array((q.geometry.attributes.aA.buffer.data as Float32Array).buffer);
    for (let v = 0; v < 4; v++) {
      expect(Array.from(out.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(srcU32.subarray(0, 3)));
      expect(Array.from(out.subarray(12 + v * 3, 12 + v * 3 + 3))).toEqual(Array.from(srcU32.subarray(3, 6)));
    }
    expect(q.geometry.indexCount).toBe(12);
    expect(Array.from((q.geometry.indexBuffer.data as Uint16Array).subarray(0, 12))).toEqual([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
    expect(Array.from((q.geometry.attributes.aCorner.buffer.data as Float32Array).subarray(0, 8))).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
    q.destroy();
  });

  it('reads overlapping records (polyline segments: point i and point i + 1)', () => {
    const q = new QuadGeometry(5, { aA: { format: 'float32x2', offset: 0 } }, true, 1);
    const points = new Float32Array([0, 0, 7, 10, 10, 8, 20, 0, 9]);
    q.replicate(points, 2, 3);
    const out = q.geometry.attributes.aA.buffer.data as Float32Array;
    expect(Array.from(out.subarray(0, 5))).toEqual([0, 0, 7, 10, 10]);
    expect(Array.from(out.subarray(20, 25))).toEqual([10, 10, 8, 20, 0]);
    q.destroy();
  });

  it('grows, and switches to 32-bit indices past 16,384 quads', () => {
    const q = new QuadGeometry(3, { aA: { format: 'float32x2', offset: 0 } }, false, 64);
    q.vertices(16_384);
    expect(q.geometry.indexBuffer.data).toBeInstanceOf(Uint16Array);
    q.vertices(16_385);
    const idx = q.geometry.indexBuffer.data as Uint32Array;
    expect(idx).toBeInstanceOf(Uint32Array);
    expect(idx[16_384 * 6 + 5]).toBe(16_384 * 4 + 3);
    q.destroy();
  });
});
