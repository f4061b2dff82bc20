/**
 * Draw calls, vertices and uploads counted at the WebGL calls of one context — the bench's own copy
 * of what the engine counts in src/engine/render/gl-stats.ts (the bench imports only the engine's
 * index), used for the bare Pixi baseline.
 */
export interface GlFrameCounters {
  drawCalls: number;
  vertices: number;
  instances: number;
  bufferBytes: number;
  textureUploads: number;
}

export function countGl(gl: WebGL2RenderingContext): GlFrameCounters & { reset(): void } {
  const c = {
    drawCalls: 0,
    vertices: 0,
    instances: 0,
    bufferBytes: 0,
    textureUploads: 0,
    reset() {
      c.drawCalls = c.vertices = c.instances = c.bufferBytes = c.textureUploads = 0;
    },
  };
  const wrap = (name: string, count: (a: unknown[]) => void): void => {
    const target = gl as unknown as Record<string, (...a: unknown[]) => unknown>;
    const own = target[name].bind(gl);
    Object.defineProperty(gl, name, {
      configurable: true,
      value: (...a: unknown[]) => {
        count(a);
        return own(...a);
      },
    });
  };
  wrap('drawElements', (a) => {
    c.drawCalls++;
    c.vertices += a[1] as number;
  });
  wrap('drawElementsInstanced', (a) => {
    c.drawCalls++;
    c.vertices += (a[1] as number) * (a[4] as number);
    c.instances += a[4] as number;
  });
  wrap('drawArrays', (a) => {
    c.drawCalls++;
    c.vertices += a[2] as number;
  });
  wrap('drawArraysInstanced', (a) => {
    c.drawCalls++;
    c.vertices += (a[2] as number) * (a[3] as number);
    c.instances += a[3] as number;
  });
  wrap('bufferData', (a) => {
    c.bufferBytes += typeof a[1] === 'number' ? a[1] : ((a[1] as ArrayBufferView | null)?.byteLength ?? 0);
  });
  wrap('bufferSubData', (a) => {
    const src = a[2] as ArrayBufferView & { BYTES_PER_ELEMENT?: number };
    const bpe = src.BYTES_PER_ELEMENT ?? 1;
    const length = a[4] as number | undefined;
    c.bufferBytes += length ? length * bpe : src.byteLength - ((a[3] as number | undefined) ?? 0) * bpe;
  });
  wrap('texImage2D', () => c.textureUploads++);
  wrap('texSubImage2D', () => c.textureUploads++);
  return c;
}
