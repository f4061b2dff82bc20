import 'pixi.js/unsafe-eval';
import { Container, Ticker, WebGLRenderer } from 'pixi.js';
import type { ResolvedTheme } from '../model/theme';
import type { Scene } from '../model/scene';
import type { MeasureText, PrimitiveList, TextList } from '../model/view/primitive-list';
import type { RenderStats } from '../types';
import { emptyCounters, instrumentContext, type GlCounters } from './gl-stats';
import { PrimitiveLayer, SeriesLayer } from './gpu-layers';
import { LineLayer } from './line-layer';
import { createMeasure, ensureFont, TextPool } from './text-pool';

// Render on demand: Pixi's system ticker would otherwise run every frame for its scheduler even
// with nothing to draw (measured: it keeps rAF busy). The engine paints from its own rAF request.
Ticker.system.autoStart = false;
Ticker.system.stop();

interface LayerPair {
  prims: PrimitiveLayer;
  texts: TextPool | null;
  list: (s: Scene) => PrimitiveList;
  textList: ((s: Scene) => TextList) | null;
}

/**
 * The retained Pixi scene: layers are built once (grid, series, drawings, lines, axes, axis marks,
 * crosshair overlay); a paint copies the view-data lists that changed into their GPU buffers and
 * renders. Nothing is rebuilt per frame and there is no Graphics at all.
 */
export class ChartRenderer {
  readonly canvas: HTMLCanvasElement;
  measure: MeasureText;
  private readonly stage = new Container({ label: 'chart' });
  private readonly series = new SeriesLayer();
  private readonly indicatorLines = new LineLayer();
  private readonly layers: LayerPair[];
  private fontName: string;
  private dpr: number;
  private width: number;
  private height: number;
  private readonly gl: GlCounters;
  private frames = 0;
  private last: RenderStats;

  private constructor(
    private readonly renderer: WebGLRenderer,
    counters: GlCounters,
    theme: ResolvedTheme,
    width: number,
    height: number,
    dpr: number,
  ) {
    this.canvas = renderer.canvas as HTMLCanvasElement;
    this.gl = counters;
    this.last = { frames: 0, ...emptyCounters(), seriesColumns: 0, barsPerColumn: 1, seriesPixels: 0, texts: 0, textLayouts: 0 };
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    const family = theme.source.fontFamily;
    this.fontName = ensureFont(family, theme.fontSize, dpr);
    this.measure = createMeasure(this.fontName, theme.fontSize);
    const pair = (label: string, list: LayerPair['list'], textList: LayerPair['textList']): LayerPair => ({
      prims: new PrimitiveLayer(label),
      texts: textList ? new TextPool(this.fontName, theme.fontSize) : null,
      list,
      textList,
    });
    const grid = pair('grid', (s) => s.grid, null);
    this.layers = [
      grid,
      pair('drawings', (s) => s.drawings, (s) => s.drawingTexts),
      pair('lines', (s) => s.lines, (s) => s.lineTexts),
      pair('axes', (s) => s.axes, (s) => s.axisTexts),
      pair('marks', (s) => s.marks, (s) => s.markTexts),
      pair('overlay', (s) => s.overlay, (s) => s.overlayTexts),
    ];
    this.stage.addChild(grid.prims.container, this.series.container, this.indicatorLines.container);
    for (const l of this.layers.slice(1)) {
      this.stage.addChild(l.prims.container);
      if (l.texts) this.stage.addChild(l.texts.container);
    }
    this.setTheme(theme);
  }

  static async create(width: number, height: number, dpr: number, theme: ResolvedTheme): Promise<ChartRenderer> {
    const renderer = new WebGLRenderer();
    // Our own context: the engine draws flat 2D layers in order and uses no masks or depth test, so
    // it asks for no depth or stencil buffer (Pixi always asks for stencil) — that is 4 bytes less
    // per device pixel, a fifth of a 1600×900 chart's GPU memory at dpr 2, and nothing to clear
    // each frame.
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('webgl2', {
      // Opaque unless the theme's background is see-through (packed 0xRRGGBBAA).
      alpha: (theme.background & 0xff) < 0xff,
      antialias: false,
      depth: false,
      stencil: false,
      premultipliedAlpha: true,
      preserveDrawingBuffer: false,
      powerPreference: 'high-performance',
    });
    if (!context) throw new Error('WebGL2 is not available in this browser');
    const counters = emptyCounters();
    instrumentContext(context, counters);
    const restore = answerStencilCheck(context);
    await renderer.init({
      canvas,
      context,
      width,
      height,
      resolution: dpr,
      autoDensity: true,
      antialias: false,
      background: theme.source.background,
      // Only the renderer: no Pixi event system (the engine handles DOM pointers itself),
      // no accessibility layer, no ticker-driven extensions.
      skipExtensionImports: true,
      powerPreference: 'high-performance',
    }).finally(restore);
    const r = new ChartRenderer(renderer, counters, theme, width, height, dpr);
    r.canvas.style.display = 'block';
    // The series program is compiled now, while the data is still on its way, not in the first frame.
    r.series.warmUp(Math.round(width * dpr), Math.round(height * dpr), () => renderer.render(r.stage));
    return r;
  }

  setTheme(theme: ResolvedTheme): void {
    this.renderer.background.color = theme.source.background;
    this.series.setTheme(theme);
  }

  resize(width: number, height: number, dpr: number, theme: ResolvedTheme): void {
    this.width = width;
    this.height = height;
    this.renderer.resize(width, height, dpr);
    if (dpr !== this.dpr) {
      this.dpr = dpr;
      this.fontName = ensureFont(theme.source.fontFamily, theme.fontSize, dpr);
      this.measure = createMeasure(this.fontName, theme.fontSize);
      for (const l of this.layers) l.texts?.setFont(this.fontName, theme.fontSize);
    }
  }

  /** Copies changed view data to the GPU and renders one frame. */
  draw(scene: Scene): void {
    const dw = Math.round(this.width * this.dpr);
    const dh = Math.round(this.height * this.dpr);
    const gl = this.gl;
    gl.drawCalls = gl.vertices = gl.instances = gl.bufferBytes = gl.textureUploads = 0;
    this.series.sync(scene.series, dw, dh);
    this.indicatorLines.sync(scene.indicatorLines, dw, dh);
    let texts = 0;
    let textLayouts = 0;
    for (const l of this.layers) {
      l.prims.sync(l.list(scene), dw, dh);
      if (l.texts && l.textList) {
        textLayouts += l.texts.sync(l.textList(scene), this.dpr);
        texts += l.texts.shown;
      }
    }
    this.renderer.render(this.stage);
    this.frames++;
    this.last = {
      frames: this.frames,
      drawCalls: gl.drawCalls,
      vertices: gl.vertices,
      instances: gl.instances,
      bufferBytes: gl.bufferBytes,
      textureUploads: gl.textureUploads,
      seriesColumns: scene.series.count,
      barsPerColumn: scene.series.barsPerColumn,
      seriesPixels: this.series.pixels,
      texts,
      textLayouts,
    };
  }

  /** What the last paint sent to the GPU. */
  stats(): RenderStats {
    return { ...this.last };
  }

  destroy(): void {
    this.series.destroy();
    this.indicatorLines.destroy();
    for (const l of this.layers) {
      l.prims.destroy();
      l.texts?.container.destroy({ children: true });
    }
    this.stage.destroy({ children: true });
    // Loses the WebGL context (GlContextSystem.destroy) and removes the canvas from the page.
    this.renderer.destroy({ removeView: true });
  }
}

/**
 * Pixi's GlContextSystem.validateContext warns ("Provided WebGL context does not have a stencil
 * buffer, masks may not render correctly") for any context without a stencil buffer — once per
 * chart. Stencil is what Pixi's masks (`mask`, Graphics masks, scissor fallbacks) need; this
 * renderer has none of them (no Graphics, no masks, no filters: layers are instanced meshes and
 * BitmapTexts drawn in order), so the warning is noise. `getContextAttributes` is read nowhere else
 * in Pixi (8.22), so for the duration of `init` only, this one context reports a stencil buffer;
 * then the context's own method is back. Returns the function that restores it.
 */
function answerStencilCheck(context: WebGL2RenderingContext): () => void {
  const own = context.getContextAttributes.bind(context);
  Object.defineProperty(context, 'getContextAttributes', {
    configurable: true,
    value: (): WebGLContextAttributes | null => {
      const attributes = own();
      return attributes && { ...attributes, stencil: true };
    },
  });
  return () => {
    delete (context as { getContextAttributes?: unknown }).getContextAttributes;
  };
}
