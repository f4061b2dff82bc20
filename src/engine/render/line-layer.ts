import { Container, Mesh, Shader } from 'pixi.js';
import { LINE_STRIDE, type LineList } from '../model/view/line-list';
import { QuadGeometry } from './quads';
import { LINE_FRAGMENT, LINE_VERTEX } from './shaders';

/** Floats per vertex: the segment's start point (x, y, colour) and end point (x, y). */
const SEGMENT_FLOATS = LINE_STRIDE + 2;

/**
 * Every polyline of a layer (the indicators) in one non-instanced draw: segment i is the five
 * floats from point i (x, y, colour) to point i + 1 (x, y), copied into its quad's four vertices
 * (see QuadGeometry for why not instancing). The vertex shader is the instanced one's.
 */
export class LineLayer {
  readonly container = new Container({ label: 'indicator-lines' });
  private readonly quads = new QuadGeometry(
    SEGMENT_FLOATS,
    {
      aA: { format: 'float32x2', offset: 0 },
      aColor: { format: 'unorm8x4', offset: 8 },
      aB: { format: 'float32x2', offset: 12 },
    },
    true,
    256,
  );
  private readonly shader: Shader;
  private readonly size = new Float32Array([1, 1]);
  private version = -1;

  constructor() {
    this.shader = Shader.from({
      gl: { vertex: LINE_VERTEX, fragment: LINE_FRAGMENT, name: 'ct-lines' },
      resources: { lineUniforms: { uSize: { value: this.size, type: 'vec2<f32>' }, uWidth: { value: 1, type: 'f32' } } },
    });
    this.container.addChild(new Mesh({ geometry: this.quads.geometry, shader: this.shader }));
    this.container.visible = false;
  }

  sync(list: LineList, deviceWidth: number, deviceHeight: number): void {
    this.size[0] = deviceWidth;
    this.size[1] = deviceHeight;
    if (list.version === this.version) return;
    this.version = list.version;
    (this.shader.resources.lineUniforms.uniforms as { uWidth: number }).uWidth = list.width;
    const segments = Math.max(0, list.count - 1);
    this.quads.replicate(list.data, segments, LINE_STRIDE);
    this.quads.commit(segments);
    // Nothing to draw: no draw call at all.
    this.container.visible = segments > 0;
  }

  destroy(): void {
    this.container.destroy({ children: true });
    this.quads.destroy();
    this.shader.destroy(false);
  }
}
