import { Buffer, BufferUsage, Geometry, type VertexFormat } from 'pixi.js';

/**
 * Quads drawn WITHOUT instancing: four vertices per quad and a static index pattern (0 1 2 0 2 3 per
 * quad), one `drawElements` per layer.
 *
 * Why not instancing: SwiftShader — the WebGL of every machine without a GPU, headless Chromium
 * included — executes an instanced draw as one internal draw per instance
 * (`for (instance …) renderer->draw(…)`, "Optimize instancing to use a single draw call",
 * swiftshader b/137740918). Each of those carries a draw's whole setup and scheduling cost, so
 * 1,500 candle columns in two instanced meshes cost 3,000 draws a frame: with 5,000 bars visible
 * that alone held panning at 33–83 ms frames. Replicating each record into its four vertices
 * costs 4× the upload bytes (a few hundred kB at most per frame, a memcpy) and is one draw on any
 * implementation; on hardware GPUs the two are alike.
 *
 * Layers either write final vertices themselves (`vertices(quads)`, the series) or hand over one
 * record per quad that `replicate` copies into the quad's four vertices; a static per-vertex
 * `aCorner` (0,0 · 1,0 · 1,1 · 0,1) then lets the old per-instance vertex shaders run unchanged.
 */
export class QuadGeometry {
  readonly geometry: Geometry;
  private readonly data: Buffer;
  private readonly index: Buffer;
  private readonly corners: Buffer | null;
  private capacity: number;
  private f32: Float32Array;
  private u32: Uint32Array;

  /**
   * `floatsPerVertex`: the vertex record (4-byte slots); `attributes`: name → format and byte offset
   * in it; `withCorners`: add the static `aCorner` attribute.
   */
  constructor(
    private readonly floatsPerVertex: number,
    attributes: Record<string, { format: VertexFormat; offset: number }>,
    withCorners: boolean,
    capacity = 64,
  ) {
    this.capacity = capacity;
    this.f32 = new Float32Array(capacity * 4 * floatsPerVertex);
    this.u32 = new Uint32Array(this.f32.buffer);
    this.data = new Buffer({ data: this.f32, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.index = new Buffer({ data: indexPattern(capacity), usage: BufferUsage.INDEX | BufferUsage.COPY_DST });
    this.corners = withCorners ? new Buffer({ data: cornerPattern(capacity), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST }) : null;
    const stride = floatsPerVertex * 4;
    const attrs: Record<string, { buffer: Buffer; format: VertexFormat; stride: number; offset: number }> = {};
    for (const [name, a] of Object.entries(attributes)) attrs[name] = { buffer: this.data, format: a.format, stride, offset: a.offset };
    if (this.corners) attrs.aCorner = { buffer: this.corners, format: 'float32x2', stride: 8, offset: 0 };
    this.geometry = new Geometry({ attributes: attrs, indexBuffer: this.index });
    // Nothing is drawn until the first upload (0 would mean "the whole index buffer").
    this.geometry.indexCount = 0;
  }

  /** Room for `quads` quads; returns the vertex arrays to write (float and packed-colour views of one buffer). */
  vertices(quads: number): { f32: Float32Array; u32: Uint32Array } {
    // Grows by half at least: a layer's size changes step by step while zooming.
    if (quads > this.capacity) this.grow(Math.max(quads, Math.ceil(this.capacity * 1.5)));
    return { f32: this.f32, u32: this.u32 };
  }

  /** Allocates room for exactly `quads` quads now (the most a layer can draw at this canvas size), not mid-gesture. */
  reserve(quads: number): void {
    if (quads > this.capacity) this.grow(quads);
  }

  private grow(capacity: number): void {
    const next = new Float32Array(capacity * 4 * this.floatsPerVertex);
    this.capacity = capacity;
    this.f32 = next;
    this.u32 = new Uint32Array(next.buffer);
    this.data.data = next;
    this.index.data = indexPattern(capacity);
    if (this.corners) this.corners.data = cornerPattern(capacity);
  }

  /**
   * Copies `count` records of `floatsPerVertex` floats each into the four vertices of their quads;
   * record q starts at `q × srcStride` (records may overlap: a polyline's segment is two points).
   */
  replicate(src: Float32Array, count: number, srcStride = this.floatsPerVertex): void {
    const n = this.floatsPerVertex;
    const { u32 } = this.vertices(count);
    // Copied as 32-bit words: packed colours can be NaN patterns as floats, which a float copy may alter.
    const from = new Uint32Array(src.buffer, src.byteOffset, src.length);
    for (let q = 0, s = 0, d = 0; q < count; q++, s += srcStride) {
      for (let v = 0; v < 4; v++) {
        for (let k = 0; k < n; k++) u32[d + k] = from[s + k];
        d += n;
      }
    }
  }

  /** Uploads the first `quads` quads written and draws exactly those. */
  commit(quads: number): void {
    if (quads > 0) this.data.update(quads * 4 * this.floatsPerVertex * 4);
    this.geometry.indexCount = quads * 6;
  }

  destroy(): void {
    const buffers = new Set<Buffer>([this.data, this.index]);
    if (this.corners) buffers.add(this.corners);
    this.geometry.destroy(false);
    for (const b of buffers) b.destroy();
  }
}

/** Six indices per quad; 16-bit while the vertices fit (up to 16,384 quads). */
function indexPattern(quads: number): Uint16Array | Uint32Array {
  const idx = quads * 4 <= 65536 ? new Uint16Array(quads * 6) : new Uint32Array(quads * 6);
  for (let q = 0, i = 0, v = 0; q < quads; q++, i += 6, v += 4) {
    idx[i] = v;
    idx[i + 1] = v + 1;
    idx[i + 2] = v + 2;
    idx[i + 3] = v;
    idx[i + 4] = v + 2;
    idx[i + 5] = v + 3;
  }
  return idx;
}

function cornerPattern(quads: number): Float32Array {
  // (0,0) (1,0) (1,1) (0,1) per quad: x is 1 at vertices 1 and 2, y at vertices 2 and 3.
  const c = new Float32Array(quads * 8);
  for (let o = 0; o < c.length; o += 8) c[o + 2] = c[o + 4] = c[o + 5] = c[o + 7] = 1;
  return c;
}
