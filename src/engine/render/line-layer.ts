import { Buffer, BufferUsage, Container, Geometry, Mesh, Shader } from 'pixi.js';
import { LINE_STRIDE, type LineList } from '../model/view/line-list';
import { LINE_FRAGMENT, LINE_VERTEX } from './shaders';

/**
 * Every polyline of a layer (the indicators) in one instanced draw: the point buffer is read twice,
 * at offset 0 (segment start) and one point later (segment end), so a frame uploads 12 bytes per
 * point whatever the number of lines.
 */
export class LineLayer {
  readonly container = new Container({ label: 'indicator-lines' });
  private readonly points: Buffer;
  private readonly geometry: Geometry;
  private readonly shader: Shader;
  private readonly size = new Float32Array([1, 1]);
  private version = -1;
  private capacity = 1024;

  constructor() {
    this.points = new Buffer({ data: new Float32Array(this.capacity * LINE_STRIDE), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    const stride = LINE_STRIDE * 4;
    this.geometry = new Geometry({
      attributes: {
        aCorner: { buffer: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]), format: 'float32x2' },
        aA: { buffer: this.points, format: 'float32x2', stride, offset: 0, instance: true },
        aColor: { buffer: this.points, format: 'unorm8x4', stride, offset: 8, instance: true },
        aB: { buffer: this.points, format: 'float32x2', stride, offset: stride, instance: true },
      },
      indexBuffer: new Uint16Array([0, 1, 2, 0, 2, 3]),
      instanceCount: 0,
    });
    this.shader = Shader.from({
      gl: { vertex: LINE_VERTEX, fragment: LINE_FRAGMENT, name: 'ct-lines' },
      resources: { lineUniforms: { uSize: { value: this.size, type: 'vec2<f32>' }, uWidth: { value: 1, type: 'f32' } } },
    });
    const mesh = new Mesh({ geometry: this.geometry, shader: this.shader });
    this.container.addChild(mesh);
  }

  sync(list: LineList, deviceWidth: number, deviceHeight: number): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    if (list.version === this.version) return;
    this.version = list.version;
    (this.shader.resources.lineUniforms.uniforms as { uWidth: number }).uWidth = list.width;
    const floats = list.count * LINE_STRIDE;
    if (list.count > this.capacity) {
      this.capacity = Math.max(list.count, this.capacity * 2);
      this.points.data = new Float32Array(this.capacity * LINE_STRIDE);
    }
    (this.points.data as Float32Array).set(list.data.subarray(0, floats));
    if (floats > 0) this.points.update(floats * 4);
    this.geometry.instanceCount = Math.max(0, list.count - 1);
    // Nothing to draw: keep Pixi from issuing an empty instanced draw.
    this.container.visible = list.count > 1;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    const buffers = new Set<Buffer>([...this.geometry.buffers]);
    if (this.geometry.indexBuffer) buffers.add(this.geometry.indexBuffer);
    this.geometry.destroy(false);
    for (const b of buffers) b.destroy();
    this.shader.destroy(false);
  }
}
