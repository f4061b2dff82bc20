/**
 * What reaches the GPU, counted at the WebGL calls of the engine's own context (so Pixi's batched
 * text and anything else it issues are included): draw calls, vertices processed (indices ×
 * instances), instances, bytes uploaded into buffers and texture uploads. A few integer additions
 * per call, about twenty calls per frame: always on.
 */
export interface GlCounters {
  drawCalls: number;
  vertices: number;
  instances: number;
  bufferBytes: number;
  textureUploads: number;
}

export function emptyCounters(): GlCounters {
  return { drawCalls: 0, vertices: 0, instances: 0, bufferBytes: 0, textureUploads: 0 };
}

type AnyFn = (...args: never[]) => unknown;

/** Wraps the context's own draw and upload methods (instance properties, not the prototype). */
export function instrumentContext(gl: WebGL2RenderingContext, c: GlCounters): void {
  const wrap = <K extends keyof WebGL2RenderingContext>(name: K, count: (args: unknown[]) => void): void => {
    const own = (gl[name] as unknown as AnyFn).bind(gl) as (...a: unknown[]) => unknown;
    Object.defineProperty(gl, name, {
      configurable: true,
      value: (...args: unknown[]) => {
        count(args);
        return own(...args);
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
    const src = a[1];
    c.bufferBytes += typeof src === 'number' ? src : ((src as ArrayBufferView | null)?.byteLength ?? 0);
  });
  wrap('bufferSubData', (a) => {
    const src = a[2] as ArrayBufferView;
    const bpe = (src as Partial<Float32Array>).BYTES_PER_ELEMENT ?? 1;
    const srcOffset = (a[3] as number | undefined) ?? 0;
    const length = a[4] as number | undefined;
    c.bufferBytes += length ? length * bpe : src.byteLength - srcOffset * bpe;
  });
  wrap('texImage2D', () => {
    c.textureUploads++;
  });
  wrap('texSubImage2D', () => {
    c.textureUploads++;
  });
}
