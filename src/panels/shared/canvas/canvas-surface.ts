import { useComputedColorScheme } from '@mantine/core';
import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { RecordingContext } from './draw-ops';
import { GlyphText } from './glyph-text';
import { remoteContext } from './remote-canvas';

/**
 * What the painters draw with: the part of a 2D context they use — the canvas's own, or a recording replayed by
 * the paint worker (`remote-canvas.ts`). `drawImage` only as the tape calls it (the canvas onto itself).
 */
export interface PainterContext
  extends Pick<CanvasRenderingContext2D, 'fillStyle' | 'globalAlpha' | 'globalCompositeOperation' | 'textAlign' | 'textBaseline' | 'font' | 'fillRect' | 'fillText' | 'measureText'> {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  drawImage(image: CanvasImageSource, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
}

/** The theme's colours a painter uses, read from Mantine's CSS variables once per theme change. */
export interface CanvasColors {
  text: string;
  dimmed: string;
  buy: string;
  sell: string;
  buyLight: string;
  sellLight: string;
  own: string;
  highlight: string;
  border: string;
  hover: string;
}

const VARS: Record<keyof CanvasColors, [string, string]> = {
  text: ['--mantine-color-text', '#000'],
  dimmed: ['--mantine-color-dimmed', '#868e96'],
  buy: ['--mantine-color-teal-6', '#12b886'],
  sell: ['--mantine-color-red-6', '#fa5252'],
  buyLight: ['--mantine-color-teal-light', 'rgba(18,184,134,0.1)'],
  sellLight: ['--mantine-color-red-light', 'rgba(250,82,82,0.1)'],
  own: ['--mantine-color-blue-6', '#228be6'],
  highlight: ['--mantine-color-yellow-light', 'rgba(250,176,5,0.15)'],
  border: ['--mantine-color-default-border', '#dee2e6'],
  hover: ['--mantine-color-default-hover', '#f8f9fa'],
};

/**
 * A panel's canvas: its 2D context (null where there is none, as in jsdom: the painter then keeps its
 * model — what tests read — and draws nothing), its size in CSS pixels, the device pixel ratio, the
 * theme's colours and font, and the glyph writer. The backing store follows the box (ResizeObserver)
 * at the device's pixel ratio. `remote`: where the browser can, the canvas is drawn by the paint worker and
 * the context is a recording of what the painter does (issue 25 §2: no text shaping or rasterising on the
 * main thread); tests pass false to draw on the canvas's own context.
 */
export class CanvasSurface {
  readonly ctx: PainterContext | null;
  /** The backing store's size in device pixels (the canvas's own attributes are frozen once it is drawn remotely). */
  pixelWidth = 0;
  pixelHeight = 0;
  private readonly recording: RecordingContext | null;
  readonly glyphs = new GlyphText();
  width = 0;
  height = 0;
  dpr = 1;
  private sized = false;
  colors: CanvasColors = Object.fromEntries(Object.entries(VARS).map(([k, [, d]]) => [k, d])) as unknown as CanvasColors;
  font = '12px sans-serif';
  boldFont = 'bold 12px sans-serif';
  /** What `clear` paints: the panel's own background (the canvas is opaque, so the compositor never blends it). */
  background = '#fff';
  private current = '';

  constructor(
    readonly canvas: HTMLCanvasElement,
    remote = true,
  ) {
    this.recording = remote ? remoteContext(canvas) : null;
    this.ctx = this.recording ?? contextOf(canvas);
  }

  /** Reads the colours and the font from the canvas's computed style (on mount and theme change). */
  readTheme(): void {
    const style = getComputedStyle(this.canvas);
    const colors = { ...this.colors };
    for (const [k, [name, fallback]] of Object.entries(VARS) as Array<[keyof CanvasColors, [string, string]]>) {
      colors[k] = style.getPropertyValue(name).trim() || fallback;
    }
    this.colors = colors;
    this.background = backgroundOf(this.canvas) ?? (style.getPropertyValue('--mantine-color-body').trim() || '#fff');
    const size = style.fontSize || '12px';
    const family = style.fontFamily || 'sans-serif';
    this.font = `${size} ${family}`;
    this.boldFont = `bold ${size} ${family}`;
    this.setFont(false, true);
  }

  /** Sets the regular (or bold) font (the context's font is never read back: that would make a string). */
  setFont(bold: boolean, force = false): void {
    if (!this.ctx) return;
    const font = bold ? this.boldFont : this.font;
    if (font === this.current && !force) return;
    this.current = font;
    this.ctx.font = font;
    this.glyphs.measure(this.ctx, font);
  }

  /** Paints a rectangle with the panel's background (an opaque canvas's `clearRect` would leave it black). */
  clear(x: number, y: number, w: number, h: number): void {
    if (!this.ctx) return;
    this.ctx.fillStyle = this.background;
    this.ctx.fillRect(x, y, w, h);
  }

  /** Sizes the backing store to the box (CSS pixels × the pixel ratio); true when it changed. */
  resize(width: number, height: number): boolean {
    const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
    if (this.sized && width === this.width && height === this.height && dpr === this.dpr) return false;
    this.sized = true;
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    this.pixelWidth = Math.max(1, Math.round(width * dpr));
    this.pixelHeight = Math.max(1, Math.round(height * dpr));
    if (this.recording) this.recording.resize(this.pixelWidth, this.pixelHeight);
    else {
      this.canvas.width = this.pixelWidth;
      this.canvas.height = this.pixelHeight;
    }
    // Setting the size resets the context's state: transform, font, alignment.
    if (this.ctx) {
      this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.ctx.textBaseline = 'middle';
      this.ctx.textAlign = 'left';
    }
    this.setFont(false, true);
    return true;
  }
}

/** The first background colour that is not transparent, from the canvas's parent up; null when none is. */
function backgroundOf(canvas: HTMLCanvasElement): string | null {
  for (let el = canvas.parentElement; el; el = el.parentElement) {
    const bg = getComputedStyle(el).backgroundColor;
    if (bg && bg !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return null;
}

/**
 * The canvas's 2D context, or null (jsdom has none). Opaque (`alpha: false`): under a software rasteriser
 * the compositor then copies the canvas instead of blending it over the panel on every frame it changes.
 */
function contextOf(canvas: HTMLCanvasElement): CanvasRenderingContext2D | null {
  try {
    return canvas.getContext('2d', { alpha: false }) ?? null;
  } catch {
    return null;
  }
}

/** What a panel's painter does with its surface. */
export interface SurfacePainter {
  /** Everything must be drawn again (new size, new theme). */
  invalidate(): void;
  /** Draws what changed. */
  paint(): void;
}

/**
 * Keeps a `CanvasSurface` for `canvas` sized to its parent box and themed; tells `painter` to
 * repaint everything when either changes. Returns the surface (null until mounted).
 */
export function useCanvasSurface(canvas: RefObject<HTMLCanvasElement | null>, painter: RefObject<SurfacePainter | null>): RefObject<CanvasSurface | null> {
  const surface = useRef<CanvasSurface | null>(null);
  const scheme = useComputedColorScheme('light');
  useLayoutEffect(() => {
    const el = canvas.current;
    const box = el?.parentElement;
    if (!el || !box) return;
    const s = (surface.current ??= new CanvasSurface(el));
    const measure = () => {
      if (s.resize(box.clientWidth, box.clientHeight)) {
        painter.current?.invalidate();
        painter.current?.paint();
      }
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [canvas, painter]);
  useLayoutEffect(() => {
    const s = surface.current;
    if (!s) return;
    s.readTheme();
    painter.current?.invalidate();
    painter.current?.paint();
  }, [scheme, painter]);
  return surface;
}
