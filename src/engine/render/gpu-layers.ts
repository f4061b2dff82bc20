import { Container, Geometry, Mesh, Shader } from 'pixi.js';
import type { ResolvedTheme } from '../model/theme';
import { SERIES_STRIDE, type SeriesView } from '../model/scene';
import { PRIM_STRIDE, toLittleEndianRgba, type PrimitiveList } from '../model/view/primitive-list';
import { QuadGeometry } from './quads';
import { COLOR_FRAGMENT, PRIM_FRAGMENT, PRIM_VERTEX, SERIES_VERTEX } from './shaders';

/** Floats per series vertex: x, y (device px), packed colour. */
const SERIES_VERTEX_FLOATS = 3;

/**
 * Candles and volume: one non-instanced draw of quads computed here from the scene's columns
 * (8 floats per column, see SERIES_STRIDE) — every volume quad first, then each column's wick and
 * body, the order the two instanced meshes used to draw in, with the same device-pixel corners, so
 * the pixels are the same. A body exactly as wide as its wick lies inside the wick (open and close
 * are within high–low) and is not drawn: at dense zoom (1 px columns) that is every body, so a
 * column costs two quads.
 */
export class SeriesLayer {
  readonly container = new Container({ label: 'series' });
  private readonly quads = new QuadGeometry(SERIES_VERTEX_FLOATS, { aPos: { format: 'float32x2', offset: 0 }, aColor: { format: 'unorm8x4', offset: 8 } }, false, 64);
  private readonly shader: Shader;
  private readonly mesh: Mesh<Geometry, Shader>;
  private readonly size = new Float32Array([1, 1]);
  private version = -1;
  private up = 0;
  private down = 0;
  private volumeUp = 0;
  private volumeDown = 0;
  /** Device pixels covered by the last uploaded quads (wick + body + volume). */
  pixels = 0;
  /** Quads in the last upload. */
  quadCount = 0;

  constructor() {
    this.shader = Shader.from({
      gl: { vertex: SERIES_VERTEX, fragment: COLOR_FRAGMENT, name: 'ct-series' },
      resources: { seriesUniforms: { uSize: { value: this.size, type: 'vec2<f32>' } } },
    });
    this.mesh = new Mesh({ geometry: this.quads.geometry, shader: this.shader });
    this.mesh.visible = false;
    this.container.addChild(this.mesh);
  }

  setTheme(theme: ResolvedTheme): void {
    this.up = toLittleEndianRgba(theme.up);
    this.down = toLittleEndianRgba(theme.down);
    this.volumeUp = toLittleEndianRgba(theme.volumeUp);
    this.volumeDown = toLittleEndianRgba(theme.volumeDown);
    this.version = -1;
  }

  /**
   * Runs `render` once with one zero-area quad in the mesh (no pixel is drawn), then hides the mesh
   * again. Called at creation, before any data: the series program is compiled and linked (Pixi
   * waits for the link status, ≈ 10 ms on SwiftShader, whose GPU process also builds the draw's
   * routines then) and the vertex buffer is sized for the canvas, so the first frame with data
   * pays only for the data.
   */
  warmUp(deviceWidth: number, deviceHeight: number, render: () => void): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    this.reserve(deviceWidth);
    this.quads.vertices(1).f32.fill(0, 0, QUAD_FLOATS);
    this.quads.commit(1);
    this.mesh.visible = true;
    render();
    this.quads.commit(0);
    this.mesh.visible = false;
  }

  /**
   * The most a frame can draw at this width, allocated once rather than step by step while zooming
   * out: at most one column per device px with two quads each (bodies as wide as their wick are
   * left out); three quads only where bodies are wider than wicks, i.e. ≥ 3 px per bar.
   */
  private reserve(deviceWidth: number): void {
    this.quads.reserve(2 * (deviceWidth + 16));
  }

  sync(view: SeriesView, deviceWidth: number, deviceHeight: number): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    this.reserve(deviceWidth);
    if (view.version === this.version) return;
    this.version = view.version;
    const n = view.count;
    const d = view.data;
    const wick = view.wickWidth;
    const volumeBottom = view.volumeBottom;
    let bodies = 0;
    for (let o = 0; o < n * SERIES_STRIDE; o += SERIES_STRIDE) if (!bodyCovered(d, o, wick)) bodies++;
    const { f32, u32 } = this.quads.vertices(2 * n + bodies);
    // o: float offset of the next quad's first vertex. A plain loop calling a module function
    // (inlined by the JIT) rather than a closure over mutable counters, which V8 keeps in memory.
    let o = 0;
    let px = 0;
    // Volume under everything.
    for (let c = 0, s = 0; c < n; c++, s += SERIES_STRIDE) {
      const body = d[s + 1];
      const left = d[s] + (wick - body) * 0.5;
      px += writeQuad(f32, u32, o, left, d[s + 6], left + body, volumeBottom, d[s + 7] > 0.5 ? this.volumeUp : this.volumeDown);
      o += QUAD_FLOATS;
    }
    for (let c = 0, s = 0; c < n; c++, s += SERIES_STRIDE) {
      const x = d[s];
      const body = d[s + 1];
      const yOpen = d[s + 2];
      const yClose = d[s + 5];
      const color = d[s + 7] > 0.5 ? this.up : this.down;
      px += writeQuad(f32, u32, o, x, d[s + 3], x + wick, d[s + 4] + 1, color);
      o += QUAD_FLOATS;
      if (!bodyCovered(d, s, wick)) {
        const top = Math.min(yOpen, yClose);
        const left = x + (wick - body) * 0.5;
        px += writeQuad(f32, u32, o, left, top, left + body, Math.max(yOpen, yClose, top + 1), color);
        o += QUAD_FLOATS;
      }
    }
    const q = o / QUAD_FLOATS;
    this.quads.commit(q);
    this.mesh.visible = q > 0;
    this.pixels = px;
    this.quadCount = q;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    this.quads.destroy();
    this.shader.destroy(false);
  }
}

/** Floats per series quad (four vertices). */
const QUAD_FLOATS = 4 * SERIES_VERTEX_FLOATS;

/**
 * One series quad at float offset `o`, corners in the order (l,t) (r,t) (r,b) (l,b) as the instanced
 * shader's mix(…, aCorner) made them; returns the device pixels it covers.
 */
function writeQuad(f32: Float32Array, u32: Uint32Array, o: number, l: number, t: number, r: number, b: number, color: number): number {
  f32[o] = l;
  f32[o + 1] = t;
  f32[o + 3] = r;
  f32[o + 4] = t;
  f32[o + 6] = r;
  f32[o + 7] = b;
  f32[o + 9] = l;
  f32[o + 10] = b;
  u32[o + 2] = u32[o + 5] = u32[o + 8] = u32[o + 11] = color;
  return (r - l) * (b - t);
}

/** A body as wide as its wick whose open and close lie within high–low is inside the wick. */
function bodyCovered(d: Float32Array, o: number, wick: number): boolean {
  const yOpen = d[o + 2];
  const yClose = d[o + 5];
  return d[o + 1] === wick && yOpen >= d[o + 3] && yOpen <= d[o + 4] && yClose >= d[o + 3] && yClose <= d[o + 4];
}

/**
 * Rects, anti-aliased segments (solid or dashed) and discs of one layer: one non-instanced draw,
 * each primitive's record copied into its quad's four vertices (the vertex shader is the one the
 * instanced version used).
 */
export class PrimitiveLayer {
  readonly container = new Container({ label: 'primitives' });
  private readonly quads: QuadGeometry;
  private readonly shader: Shader;
  private readonly mesh: Mesh<Geometry, Shader>;
  private readonly size = new Float32Array([1, 1]);
  private version = -1;

  constructor(label: string) {
    this.container.label = label;
    this.quads = new QuadGeometry(
      PRIM_STRIDE,
      {
        aGeom: { format: 'float32x4', offset: 0 },
        aParams: { format: 'float32x4', offset: 16 },
        aColor: { format: 'unorm8x4', offset: 32 },
        aColor2: { format: 'unorm8x4', offset: 36 },
      },
      true,
    );
    this.shader = Shader.from({
      gl: { vertex: PRIM_VERTEX, fragment: PRIM_FRAGMENT, name: 'ct-primitives' },
      resources: { primUniforms: { uSize: { value: this.size, type: 'vec2<f32>' } } },
    });
    this.mesh = new Mesh({ geometry: this.quads.geometry, shader: this.shader });
    this.mesh.visible = false;
    this.container.addChild(this.mesh);
  }

  sync(list: PrimitiveList, deviceWidth: number, deviceHeight: number): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    if (list.version === this.version) return;
    this.version = list.version;
    this.quads.replicate(list.data, list.count);
    this.quads.commit(list.count);
    this.mesh.visible = list.count > 0;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    this.quads.destroy();
    this.shader.destroy(false);
  }
}
