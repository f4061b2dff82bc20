import { Buffer, BufferUsage, Container, Geometry, Mesh, Shader } from 'pixi.js';
import type { ResolvedTheme } from '../model/theme';
import { SERIES_STRIDE, type SeriesView } from '../model/scene';
import { PRIM_STRIDE, type PrimitiveList } from '../model/view/primitive-list';
import { CANDLE_VERTEX, COLOR_FRAGMENT, PRIM_FRAGMENT, PRIM_VERTEX } from './shaders';

type Vec4 = Float32Array;

function rgbaVec(c: number): Vec4 {
  return new Float32Array([(c >>> 24) / 255, ((c >>> 16) & 255) / 255, ((c >>> 8) & 255) / 255, (c & 255) / 255]);
}

function setVec(target: Vec4, c: number): void {
  target.set(rgbaVec(c));
}

const QUAD_CORNERS = new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]);
const QUAD_INDEX = new Uint16Array([0, 1, 2, 0, 2, 3]);

interface CandleUniforms {
  uSize: Float32Array;
  uWick: number;
  uVolumeBottom: number;
  uUp: Vec4;
  uDown: Vec4;
  uVolumeUp: Vec4;
  uVolumeDown: Vec4;
}

/**
 * Candles and volume: one instance per drawn column, two instanced meshes (volume below, then
 * wick + body) sharing one instance buffer, so a frame uploads the visible columns once and
 * issues two draw calls whatever the number of bars.
 */
export class SeriesLayer {
  readonly container = new Container({ label: 'series' });
  private readonly instances: Buffer;
  private readonly volumeGeometry: Geometry;
  private readonly candleGeometry: Geometry;
  private readonly shader: Shader;
  private version = -1;
  private capacity = 4096;

  constructor() {
    this.instances = new Buffer({ data: new Float32Array(this.capacity * SERIES_STRIDE), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    const instanceAttrs = {
      aBarA: { buffer: this.instances, format: 'float32x4' as const, stride: SERIES_STRIDE * 4, offset: 0, instance: true },
      aBarB: { buffer: this.instances, format: 'float32x4' as const, stride: SERIES_STRIDE * 4, offset: 16, instance: true },
    };
    this.volumeGeometry = new Geometry({
      attributes: {
        aCorner: { buffer: QUAD_CORNERS, format: 'float32x2' },
        aPart: { buffer: new Float32Array([2, 2, 2, 2]), format: 'float32' },
        ...instanceAttrs,
      },
      indexBuffer: QUAD_INDEX,
      instanceCount: 0,
    });
    this.candleGeometry = new Geometry({
      attributes: {
        aCorner: { buffer: new Float32Array([...QUAD_CORNERS, ...QUAD_CORNERS]), format: 'float32x2' },
        aPart: { buffer: new Float32Array([0, 0, 0, 0, 1, 1, 1, 1]), format: 'float32' },
        ...instanceAttrs,
      },
      indexBuffer: new Uint16Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]),
      instanceCount: 0,
    });
    this.shader = Shader.from({
      gl: { vertex: CANDLE_VERTEX, fragment: COLOR_FRAGMENT, name: 'ct-candles' },
      resources: {
        seriesUniforms: {
          uSize: { value: new Float32Array([1, 1]), type: 'vec2<f32>' },
          uWick: { value: 1, type: 'f32' },
          uVolumeBottom: { value: 0, type: 'f32' },
          uUp: { value: rgbaVec(0), type: 'vec4<f32>' },
          uDown: { value: rgbaVec(0), type: 'vec4<f32>' },
          uVolumeUp: { value: rgbaVec(0), type: 'vec4<f32>' },
          uVolumeDown: { value: rgbaVec(0), type: 'vec4<f32>' },
        },
      },
    });
    this.container.addChild(new Mesh({ geometry: this.volumeGeometry, shader: this.shader }));
    this.container.addChild(new Mesh({ geometry: this.candleGeometry, shader: this.shader }));
  }

  setTheme(theme: ResolvedTheme): void {
    const u = this.shader.resources.seriesUniforms.uniforms as CandleUniforms;
    setVec(u.uUp, theme.up);
    setVec(u.uDown, theme.down);
    setVec(u.uVolumeUp, theme.volumeUp);
    setVec(u.uVolumeDown, theme.volumeDown);
  }

  sync(view: SeriesView, deviceWidth: number, deviceHeight: number): void {
    const u = this.shader.resources.seriesUniforms.uniforms as CandleUniforms;
    u.uSize[0] = deviceWidth;
    u.uSize[1] = deviceHeight;
    if (view.version === this.version) return;
    this.version = view.version;
    u.uWick = view.wickWidth;
    u.uVolumeBottom = view.volumeBottom;
    const floats = view.count * SERIES_STRIDE;
    if (view.count > this.capacity) {
      this.capacity = Math.max(view.count, this.capacity * 2);
      this.instances.data = new Float32Array(this.capacity * SERIES_STRIDE);
    }
    (this.instances.data as Float32Array).set(view.data.subarray(0, floats));
    // Upload only the rows written this frame.
    this.instances.update(floats * 4);
    this.volumeGeometry.instanceCount = view.count;
    this.candleGeometry.instanceCount = view.count;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    destroyGeometries([this.volumeGeometry, this.candleGeometry]);
    this.shader.destroy(false);
  }
}

/** Rects, anti-aliased segments (solid or dashed) and discs of one layer: one instanced draw call. */
export class PrimitiveLayer {
  readonly container = new Container({ label: 'primitives' });
  private readonly instances: Buffer;
  private readonly geometry: Geometry;
  private readonly shader: Shader;
  private readonly size = new Float32Array([1, 1]);
  private version = -1;
  private capacity = 256;

  constructor(label: string) {
    this.container.label = label;
    this.instances = new Buffer({ data: new Float32Array(this.capacity * PRIM_STRIDE), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    const stride = PRIM_STRIDE * 4;
    this.geometry = new Geometry({
      attributes: {
        aCorner: { buffer: QUAD_CORNERS, format: 'float32x2' },
        aGeom: { buffer: this.instances, format: 'float32x4', stride, offset: 0, instance: true },
        aParams: { buffer: this.instances, format: 'float32x4', stride, offset: 16, instance: true },
        aColor: { buffer: this.instances, format: 'unorm8x4', stride, offset: 32, instance: true },
        aColor2: { buffer: this.instances, format: 'unorm8x4', stride, offset: 36, instance: true },
      },
      indexBuffer: QUAD_INDEX,
      instanceCount: 0,
    });
    this.shader = Shader.from({
      gl: { vertex: PRIM_VERTEX, fragment: PRIM_FRAGMENT, name: 'ct-primitives' },
      resources: { primUniforms: { uSize: { value: this.size, type: 'vec2<f32>' } } },
    });
    this.container.addChild(new Mesh({ geometry: this.geometry, shader: this.shader }));
  }

  sync(list: PrimitiveList, deviceWidth: number, deviceHeight: number): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    if (list.version === this.version) return;
    this.version = list.version;
    const floats = list.count * PRIM_STRIDE;
    if (list.count > this.capacity) {
      this.capacity = Math.max(list.count, this.capacity * 2);
      this.instances.data = new Float32Array(this.capacity * PRIM_STRIDE);
    }
    (this.instances.data as Float32Array).set(list.data.subarray(0, floats));
    if (floats > 0) this.instances.update(floats * 4);
    this.geometry.instanceCount = list.count;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    destroyGeometries([this.geometry]);
    this.shader.destroy(false);
  }
}

/** Destroys geometries and each of their buffers once (the series meshes share the instance buffer). */
function destroyGeometries(geometries: Geometry[]): void {
  const buffers = new Set<Buffer>();
  for (const g of geometries) {
    for (const b of g.buffers) buffers.add(b);
    if (g.indexBuffer) buffers.add(g.indexBuffer);
  }
  for (const g of geometries) g.destroy(false);
  for (const b of buffers) b.destroy();
}
