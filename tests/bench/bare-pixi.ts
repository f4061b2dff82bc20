// The physical floor of this stack: a bare pixi.js v8 candlestick chart, written for the benchmark only
// (not product code). Candles and volume are ONE instanced Mesh (wick, body and volume quads per drawn
// candle, custom shader); the visible slice is copied into a preallocated instance buffer; a
// level-of-detail pyramid (factor 2, aligned groups) keeps every drawn candle ≥ 1 device px wide;
// grid, axis backgrounds, crosshair and the last-price line are a second instanced Mesh of rects;
// axis labels are pooled BitmapTexts. It renders only when asked (no ticker). No drawings, no price
// lines, no indicators: what the engine draws beyond this is the engine's own cost.
// eslint-disable-next-line no-restricted-imports -- the baseline is pixi.js on purpose (the engine's render/ is the only product code allowed to import it)
import { BitmapFont, BitmapText, Buffer, BufferUsage, Container, Geometry, Mesh, Shader, Ticker, WebGLRenderer } from 'pixi.js';

Ticker.system.autoStart = false;
Ticker.system.stop();

export interface BareBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Per drawn candle: x centre (device px), width (device px), open, high, low, close, volume, _ (prices relative to `ref`). */
const STRIDE = 8;
const RECT_STRIDE = 8; // l t r b (device px), r g b a (premultiplied)
const PANE_AXIS_W = 64;
const TIME_AXIS_H = 26;

const CANDLE_VS = `#version 300 es
precision highp float;
in vec2 aCorner; in float aPart; in vec4 aA; in vec4 aB;
uniform vec2 uSize; uniform vec4 uPrice; uniform vec4 uUp; uniform vec4 uDown; uniform vec4 uVolUp; uniform vec4 uVolDown;
out vec4 vColor;
void main() {
  // uPrice: y0, px per price, volume bottom, px per volume
  float x = aA.x; float w = aA.y;
  float yO = floor(uPrice.x - aA.z * uPrice.y + 0.5); float yH = floor(uPrice.x - aA.w * uPrice.y + 0.5);
  float yL = floor(uPrice.x - aB.x * uPrice.y + 0.5); float yC = floor(uPrice.x - aB.y * uPrice.y + 0.5);
  bool up = aB.y >= aA.z;
  float body = max(1.0, floor(w * 0.8));
  float bl = floor(x - body * 0.5 + 0.5);
  float wl = floor(x);
  float l; float r; float t; float b; vec4 c;
  if (aPart < 0.5) { l = wl; r = wl + 1.0; t = yH; b = yL + 1.0; c = up ? uUp : uDown; }
  else if (aPart < 1.5) { l = bl; r = bl + body; t = min(yO, yC); b = max(max(yO, yC), t + 1.0); c = up ? uUp : uDown; }
  else { l = bl; r = bl + body; b = uPrice.z; t = b - max(1.0, floor(aB.z * uPrice.w + 0.5)); c = up ? uVolUp : uVolDown; }
  vec2 p = vec2(mix(l, r, aCorner.x), mix(t, b, aCorner.y));
  vColor = vec4(c.rgb * c.a, c.a);
  gl_Position = vec4(p.x / uSize.x * 2.0 - 1.0, 1.0 - p.y / uSize.y * 2.0, 0.0, 1.0);
}`;
const RECT_VS = `#version 300 es
precision highp float;
in vec2 aCorner; in vec4 aRect; in vec4 aColor;
uniform vec2 uSize;
out vec4 vColor;
void main() {
  vec2 p = mix(aRect.xy, aRect.zw, aCorner);
  vColor = aColor;
  gl_Position = vec4(p.x / uSize.x * 2.0 - 1.0, 1.0 - p.y / uSize.y * 2.0, 0.0, 1.0);
}`;
const COLOR_FS = `#version 300 es
precision mediump float;
in vec4 vColor; out vec4 finalColor;
void main() { finalColor = vColor; }`;

const rgba = (hex: number, a = 1) => new Float32Array([((hex >> 16) & 255) / 255, ((hex >> 8) & 255) / 255, (hex & 255) / 255, a]);
const CORNERS = new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]);

interface Level {
  size: number;
  o: Float32Array;
  h: Float32Array;
  l: Float32Array;
  c: Float32Array;
  v: Float32Array;
}

export class BarePixiChart {
  readonly canvas: HTMLCanvasElement;
  private readonly stage = new Container();
  private readonly inst: Buffer;
  private readonly rects: Buffer;
  private readonly candleGeo: Geometry;
  private readonly rectGeo: Geometry;
  private readonly candleShader: Shader;
  private readonly rectShader: Shader;
  private readonly labels = new Container();
  private readonly pool: BitmapText[] = [];
  private levels: Level[] = [];
  private time = new Float64Array(0);
  private n = 0;
  private ref = 0;
  private from = 0;
  private to = 1;
  private crosshair: { x: number; y: number } | null = null;
  private readonly w: number;
  private readonly h: number;

  private constructor(
    private readonly renderer: WebGLRenderer,
    width: number,
    height: number,
    private readonly dpr: number,
  ) {
    this.canvas = renderer.canvas as HTMLCanvasElement;
    this.w = width;
    this.h = height;
    const cap = Math.ceil(width * dpr) + 16;
    this.inst = new Buffer({ data: new Float32Array(cap * STRIDE), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    const a = (offset: number) => ({ buffer: this.inst, format: 'float32x4' as const, stride: STRIDE * 4, offset, instance: true });
    this.candleGeo = new Geometry({
      attributes: {
        aCorner: { buffer: new Float32Array([...CORNERS, ...CORNERS, ...CORNERS]), format: 'float32x2' },
        aPart: { buffer: new Float32Array([2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1]), format: 'float32' },
        aA: a(0),
        aB: a(16),
      },
      indexBuffer: new Uint16Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 8, 9, 10, 8, 10, 11]),
      instanceCount: 0,
    });
    this.candleShader = Shader.from({
      gl: { vertex: CANDLE_VS, fragment: COLOR_FS, name: 'bare-candles' },
      resources: {
        u: {
          uSize: { value: new Float32Array([width * dpr, height * dpr]), type: 'vec2<f32>' },
          uPrice: { value: new Float32Array(4), type: 'vec4<f32>' },
          uUp: { value: rgba(0x26a69a), type: 'vec4<f32>' },
          uDown: { value: rgba(0xef5350), type: 'vec4<f32>' },
          uVolUp: { value: rgba(0x26a69a, 0.35), type: 'vec4<f32>' },
          uVolDown: { value: rgba(0xef5350, 0.35), type: 'vec4<f32>' },
        },
      },
    });
    this.rects = new Buffer({ data: new Float32Array(256 * RECT_STRIDE), usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.rectGeo = new Geometry({
      attributes: {
        aCorner: { buffer: CORNERS, format: 'float32x2' },
        aRect: { buffer: this.rects, format: 'float32x4', stride: RECT_STRIDE * 4, offset: 0, instance: true },
        aColor: { buffer: this.rects, format: 'float32x4', stride: RECT_STRIDE * 4, offset: 16, instance: true },
      },
      indexBuffer: new Uint16Array([0, 1, 2, 0, 2, 3]),
      instanceCount: 0,
    });
    this.rectShader = Shader.from({
      gl: { vertex: RECT_VS, fragment: COLOR_FS, name: 'bare-rects' },
      resources: { u: { uSize: { value: new Float32Array([width * dpr, height * dpr]), type: 'vec2<f32>' } } },
    });
    this.stage.addChild(new Mesh({ geometry: this.candleGeo, shader: this.candleShader }));
    this.stage.addChild(new Mesh({ geometry: this.rectGeo, shader: this.rectShader }));
    this.stage.addChild(this.labels);
  }

  static async create(el: HTMLElement, dpr: number): Promise<BarePixiChart> {
    const r = el.getBoundingClientRect();
    const width = Math.floor(r.width);
    const height = Math.floor(r.height);
    const renderer = new WebGLRenderer();
    await renderer.init({ width, height, resolution: dpr, autoDensity: true, antialias: false, background: '#131722', skipExtensionImports: true });
    BitmapFont.install({ name: `bare-${dpr}`, style: { fontFamily: 'DejaVu Sans, Verdana, Arial, sans-serif', fontSize: 11, fill: '#ffffff' }, resolution: dpr, chars: [[' ', '~']] });
    const chart = new BarePixiChart(renderer, width, height, dpr);
    el.appendChild(chart.canvas);
    return chart;
  }

  get gl(): WebGL2RenderingContext {
    return this.renderer.gl as WebGL2RenderingContext;
  }

  setData(bars: BareBar[]): void {
    const n = bars.length;
    this.n = n;
    this.ref = n ? bars[n - 1].close : 0;
    this.time = new Float64Array(n);
    const lv: Level = { size: 1, o: new Float32Array(n), h: new Float32Array(n), l: new Float32Array(n), c: new Float32Array(n), v: new Float32Array(n) };
    // Prices relative to the last close keep float32 exact enough on the GPU.
    for (let i = 0; i < n; i++) {
      const b = bars[i];
      this.time[i] = b.time;
      lv.o[i] = b.open - this.ref;
      lv.h[i] = b.high - this.ref;
      lv.l[i] = b.low - this.ref;
      lv.c[i] = b.close - this.ref;
      lv.v[i] = b.volume;
    }
    this.levels = [lv];
  }

  /** Level k aggregates 2^k bars (built on first use). */
  private level(k: number): Level {
    while (this.levels.length <= k) {
      const src = this.levels[this.levels.length - 1];
      const m = Math.ceil(src.o.length / 2);
      const lv: Level = { size: src.size * 2, o: new Float32Array(m), h: new Float32Array(m), l: new Float32Array(m), c: new Float32Array(m), v: new Float32Array(m) };
      for (let e = 0; e < m; e++) {
        const a = 2 * e;
        const b = Math.min(a + 1, src.o.length - 1);
        lv.o[e] = src.o[a];
        lv.c[e] = src.c[b];
        lv.h[e] = Math.max(src.h[a], src.h[b]);
        lv.l[e] = Math.min(src.l[a], src.l[b]);
        lv.v[e] = src.v[a] + (b !== a ? src.v[b] : 0);
      }
      this.levels.push(lv);
    }
    return this.levels[k];
  }

  setRange(from: number, to: number): void {
    this.from = from;
    this.to = to;
  }

  setCrosshair(x: number, y: number): void {
    this.crosshair = { x, y };
  }

  /** Draws one frame; returns the number of candle instances drawn. */
  render(): number {
    const d = this.dpr;
    const paneW = this.w - PANE_AXIS_W;
    const paneH = this.h - TIME_AXIS_H;
    const pxPerBar = ((paneW * d) / (this.to - this.from)) || 1;
    let k = 0;
    while ((1 << k) * pxPerBar < 1 && k < 30) k++;
    const lv = this.level(k);
    const e0 = Math.max(0, Math.floor(this.from / lv.size));
    const e1 = Math.min(lv.o.length - 1, Math.ceil(this.to / lv.size));
    const data = this.inst.data as Float32Array;
    let lo = Infinity;
    let hi = -Infinity;
    let vmax = 0;
    let count = 0;
    for (let e = e0; e <= e1 && count * STRIDE < data.length; e++, count++) {
      const o = count * STRIDE;
      data[o] = ((e + 0.5) * lv.size - 0.5 - this.from) * pxPerBar;
      data[o + 1] = lv.size * pxPerBar;
      data[o + 2] = lv.o[e];
      data[o + 3] = lv.h[e];
      data[o + 4] = lv.l[e];
      data[o + 5] = lv.c[e];
      data[o + 6] = lv.v[e];
      if (lv.h[e] > hi) hi = lv.h[e];
      if (lv.l[e] < lo) lo = lv.l[e];
      if (lv.v[e] > vmax) vmax = lv.v[e];
    }
    this.inst.update(count * STRIDE * 4);
    this.candleGeo.instanceCount = count;
    const span = (hi - lo) / 0.68 || 1;
    const pmin = lo - span * 0.22;
    const kpx = (paneH * d) / span;
    const u = this.candleShader.resources.u.uniforms as { uPrice: Float32Array };
    u.uPrice[0] = paneH * d + pmin * kpx;
    u.uPrice[1] = kpx;
    u.uPrice[2] = Math.round(paneH * d);
    u.uPrice[3] = vmax > 0 ? (paneH * 0.2 * d) / vmax : 0;
    this.buildAxes(pmin, pmin + span, paneW, paneH, pxPerBar / d, e0 * lv.size);
    this.renderer.render(this.stage);
    return count;
  }

  private buildAxes(pmin: number, pmax: number, paneW: number, paneH: number, cssPerBar: number, firstBar: number): void {
    const d = this.dpr;
    const r = this.rects.data as Float32Array;
    let n = 0;
    const rect = (l: number, t: number, rt: number, b: number, c: Float32Array) => {
      const o = n++ * RECT_STRIDE;
      r[o] = Math.round(l * d);
      r[o + 1] = Math.round(t * d);
      r[o + 2] = Math.max(Math.round(l * d) + 1, Math.round(rt * d));
      r[o + 3] = Math.max(Math.round(t * d) + 1, Math.round(b * d));
      r[o + 4] = c[0] * c[3];
      r[o + 5] = c[1] * c[3];
      r[o + 6] = c[2] * c[3];
      r[o + 7] = c[3];
    };
    const grid = rgba(0x1f2433);
    const text: { s: string; x: number; y: number; ax: number }[] = [];
    // Price ticks: a 1-2-5 step about every 50 px.
    const raw = ((pmax - pmin) / paneH) * 50;
    const p10 = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((m) => m * p10).find((s) => s >= raw) ?? raw;
    for (let p = Math.ceil(pmin / step) * step; p < pmax; p += step) {
      const y = paneH - ((p - pmin) / (pmax - pmin)) * paneH;
      rect(0, y, paneW, y + 1 / d, grid);
      text.push({ s: (p + this.ref).toFixed(1), x: paneW + 6, y: y - 6, ax: 0 });
    }
    // Time ticks: every 2^j bars, about every 120 px.
    let every = 1;
    while (every * cssPerBar < 120) every *= 2;
    for (let i = Math.ceil(Math.max(firstBar, this.from) / every) * every; i <= Math.min(this.to, this.n - 1); i += every) {
      const x = (i - this.from) * cssPerBar;
      rect(x, 0, x + 1 / d, paneH, grid);
      const t = new Date(this.time[i] * 1000);
      text.push({ s: `${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}`, x, y: paneH + 7, ax: 0.5 });
    }
    rect(paneW, 0, this.w, this.h, rgba(0x131722));
    rect(0, paneH, this.w, this.h, rgba(0x131722));
    rect(paneW, 0, paneW + 1 / d, this.h, rgba(0x2a2e39));
    rect(0, paneH, this.w, paneH + 1 / d, rgba(0x2a2e39));
    if (this.crosshair) {
      rect(this.crosshair.x, 0, this.crosshair.x + 1 / d, paneH, rgba(0x9598a1));
      rect(0, this.crosshair.y, paneW, this.crosshair.y + 1 / d, rgba(0x9598a1));
    }
    this.rects.update(n * RECT_STRIDE * 4);
    this.rectGeo.instanceCount = n;
    for (let i = 0; i < text.length; i++) {
      let t = this.pool[i];
      if (!t) {
        t = new BitmapText({ text: '', style: { fontFamily: `bare-${d}`, fontSize: 11, fill: 0xb2b5be } });
        this.pool.push(t);
        this.labels.addChild(t);
      }
      if (t.text !== text[i].s) t.text = text[i].s;
      t.visible = true;
      t.anchor.set(text[i].ax, 0);
      t.x = Math.round(text[i].x * d) / d;
      t.y = Math.round(text[i].y * d) / d;
    }
    for (let i = text.length; i < this.pool.length; i++) this.pool[i].visible = false;
  }

  destroy(): void {
    this.stage.destroy({ children: true });
    this.renderer.destroy({ removeView: true });
  }
}
