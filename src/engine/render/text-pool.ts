import { BitmapFont, BitmapFontManager, BitmapText, CanvasTextMetrics, Container, TextStyle } from 'pixi.js';
import { alphaOf, rgbOf } from '../core/colors';
import type { MeasureText, TextList } from '../model/view/primitive-list';

const CHARS: (string | string[])[] = [[' ', '~'], '…·−'];

// Pixi splits every label into graphemes with Intl.Segmenter, several times per new string; that
// dominated zooming (every tick label changes). Axis labels are ASCII, where a grapheme is a char.
const segment = CanvasTextMetrics.graphemeSegmenter;
const ASCII = /^[\x20-\x7e]*$/;
CanvasTextMetrics.graphemeSegmenter = (s: string): string[] => (ASCII.test(s) ? s.split('') : segment(s));

/** Installs (once per size and device pixel ratio) the bitmap font all labels share. */
export function ensureFont(family: string, fontSize: number, dpr: number): string {
  const name = `ct-${fontSize}-${dpr}-${family}`;
  if (!installed.has(name)) {
    BitmapFont.install({
      name,
      style: { fontFamily: family, fontSize, fill: '#ffffff' },
      resolution: dpr,
      chars: CHARS,
      padding: 2,
    });
    installed.add(name);
  }
  return name;
}
const installed = new Set<string>();

/** Label widths summed from the bitmap font's glyph advances (no layout pass per string). */
export function createMeasure(fontName: string, fontSize: number): MeasureText {
  const style = new TextStyle({ fontFamily: fontName, fontSize });
  const font = BitmapFontManager.getFont('0', style);
  const scale = fontSize / font.baseMeasurementFontSize;
  const fallback = font.chars['0']?.xAdvance ?? font.baseMeasurementFontSize * 0.6;
  return (text) => {
    let w = 0;
    for (let i = 0; i < text.length; i++) w += font.chars[text[i]]?.xAdvance ?? fallback;
    return w * scale;
  };
}

/**
 * A pool of BitmapTexts reused by slot: a label's string is only re-laid-out when it changed,
 * positions are snapped to device pixels so glyphs stay crisp, and unused slots are hidden.
 */
export class TextPool {
  // Its own render group: a label that changes (countdown, legend) re-batches only this layer's
  // glyphs, not every text on the chart.
  readonly container = new Container({ label: 'texts', isRenderGroup: true });
  private readonly pool: BitmapText[] = [];
  private version = -1;
  /** Labels shown after the last sync. */
  shown = 0;

  constructor(
    private fontName: string,
    private fontSize: number,
  ) {}

  setFont(fontName: string, fontSize: number): void {
    this.fontName = fontName;
    this.fontSize = fontSize;
    for (const t of this.pool) t.style = { fontFamily: fontName, fontSize };
    this.version = -1;
  }

  /** Returns how many labels were re-laid-out (new or changed strings). */
  sync(list: TextList, dpr: number): number {
    if (list.version === this.version) return 0;
    this.version = list.version;
    let layouts = 0;
    for (let i = 0; i < list.count; i++) {
      const item = list.items[i];
      let t = this.pool[i];
      if (!t) {
        t = new BitmapText({ text: item.text, style: { fontFamily: this.fontName, fontSize: this.fontSize } });
        this.pool.push(t);
        this.container.addChild(t);
        layouts++;
      } else if (t.text !== item.text) {
        t.text = item.text;
        layouts++;
      }
      t.visible = true;
      t.tint = rgbOf(item.color);
      t.alpha = alphaOf(item.color);
      if (t.anchor.x !== item.ax || t.anchor.y !== item.ay) t.anchor.set(item.ax, item.ay);
      t.x = Math.round(item.x * dpr) / dpr;
      t.y = Math.round(item.y * dpr) / dpr;
    }
    for (let i = list.count; i < this.pool.length; i++) this.pool[i].visible = false;
    this.shown = list.count;
    return layouts;
  }
}
