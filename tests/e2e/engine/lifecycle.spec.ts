import { expect, test } from '@playwright/test';
import { openDemo } from './demo';

interface GlStats {
  contexts: number;
  liveContexts: number;
  textures: number;
  buffers: number;
}

// destroy() must free the GPU: the WebGL context is lost (released) and its textures and buffers
// deleted. Counted by wrapping the WebGL entry points before the page loads.
test('creating and destroying 50 charts leaves no live WebGL contexts or textures behind', async ({ page }) => {
  await page.addInitScript(() => {
    const contexts: WebGL2RenderingContext[] = [];
    const live = { textures: 0, buffers: 0 };
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      const ctx = (getContext as (this: HTMLCanvasElement, t: string, ...r: unknown[]) => RenderingContext | null).call(this, type, ...rest);
      if (ctx && (type === 'webgl2' || type === 'webgl') && !contexts.includes(ctx as WebGL2RenderingContext)) contexts.push(ctx as WebGL2RenderingContext);
      return ctx;
    } as typeof getContext;
    const proto = WebGL2RenderingContext.prototype;
    const wrap = <K extends 'createTexture' | 'deleteTexture' | 'createBuffer' | 'deleteBuffer'>(name: K, key: 'textures' | 'buffers', delta: number) => {
      const original = proto[name] as (...a: unknown[]) => unknown;
      (proto as unknown as Record<string, unknown>)[name] = function (this: WebGL2RenderingContext, ...a: unknown[]) {
        const r = original.apply(this, a);
        if (delta > 0 ? r : a[0]) live[key] += delta;
        return r;
      };
    };
    wrap('createTexture', 'textures', 1);
    wrap('deleteTexture', 'textures', -1);
    wrap('createBuffer', 'buffers', 1);
    wrap('deleteBuffer', 'buffers', -1);
    (window as unknown as { __gl: () => GlStats }).__gl = () => {
      // A lost context has released everything it held on the GPU, deleted or not.
      const alive = contexts.filter((c) => !c.isContextLost());
      return { contexts: contexts.length, liveContexts: alive.length, textures: live.textures, buffers: live.buffers };
    };
  });
  await openDemo(page, 'scene=empty&bare=1&w=400&h=300');
  const baseline = await page.evaluate(() => (window as unknown as { __gl: () => GlStats }).__gl());

  const result = await page.evaluate(async () => {
    const w = window as unknown as {
      __gl: () => GlStats;
      __demo: { createChart: (el: HTMLElement, o?: object) => Promise<{ setCandles(c: unknown[]): void; setDrawings(d: unknown[]): void; renderNow(): void; destroy(): void }>; generateCandles: (o: { count: number; seed: number }) => unknown[] };
    };
    const host = document.createElement('div');
    host.style.cssText = 'width:400px;height:300px;position:absolute;left:0;top:0';
    document.body.appendChild(host);
    const candles = w.__demo.generateCandles({ count: 2000, seed: 3 });
    const during: GlStats[] = [];
    for (let i = 0; i < 50; i++) {
      const chart = await w.__demo.createChart(host);
      chart.setCandles(candles);
      chart.setDrawings([{ id: 'l', kind: 'line', price: 30000, color: 'blue' }]);
      chart.renderNow();
      if (i === 0) during.push(w.__gl());
      chart.destroy();
    }
    return { during: during[0], after: w.__gl(), canvases: host.querySelectorAll('canvas').length };
  });

  // While a chart lives it holds one context with textures (glyph atlas) and buffers.
  expect(result.during.liveContexts).toBe(baseline.liveContexts + 1);
  expect(result.during.textures).toBeGreaterThan(baseline.textures);
  expect(result.during.buffers).toBeGreaterThan(baseline.buffers);
  // After 50 create/destroy cycles: 50 contexts were made, none is alive beyond the demo's own.
  expect(result.after.contexts).toBe(baseline.contexts + 50);
  expect(result.after.liveContexts).toBe(baseline.liveContexts);
  expect(result.canvases).toBe(0);
  // Every texture and buffer a chart created was deleted when it was destroyed.
  expect(result.after.textures).toBe(baseline.textures);
  expect(result.after.buffers).toBe(baseline.buffers);
});

// The engine draws flat layers in order: no depth test, no masks. Its canvas therefore holds only
// its colour buffer — a depth/stencil buffer would add 4 bytes per device pixel (23 MB for a
// 1600×900 chart at dpr 2) and a clear every frame.
test('a chart holds an opaque WebGL2 context without depth or stencil buffers', async ({ page }) => {
  await openDemo(page, 'scene=candles&w=400&h=300');
  const attributes = await page.evaluate(() => {
    const canvas = document.querySelector('canvas');
    const gl = canvas?.getContext('webgl2');
    const a = gl?.getContextAttributes();
    return a ? { depth: a.depth, stencil: a.stencil, alpha: a.alpha, antialias: a.antialias, bits: gl?.getParameter(gl.STENCIL_BITS) as number } : null;
  });
  expect(attributes).toEqual({ depth: false, stencil: false, alpha: false, antialias: false, bits: 0 });
});
