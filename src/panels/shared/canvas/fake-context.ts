/** One drawing call a `FakeContext2D` recorded. */
export interface Drawn {
  op: 'fillText' | 'fillRect' | 'clearRect' | 'drawImage';
  text?: string;
  x: number;
  y: number;
  w?: number;
  h?: number;
  fillStyle: string;
}

/**
 * A 2D context that records what is drawn (jsdom has no canvas): text, rectangles and clears with the
 * fill style of the moment. Glyphs are 7 px wide. For painter and panel tests only: `installFakeCanvas()`
 * makes every canvas's `getContext('2d')` return one.
 */
export class FakeContext2D {
  readonly calls: Drawn[] = [];
  font = '10px sans-serif';
  fillStyle = '#000';
  globalAlpha = 1;
  globalCompositeOperation: GlobalCompositeOperation = 'source-over';
  textAlign: CanvasTextAlign = 'left';
  textBaseline: CanvasTextBaseline = 'alphabetic';

  fillText(text: string, x: number, y: number): void {
    this.calls.push({ op: 'fillText', text, x, y, fillStyle: this.fillStyle });
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    this.calls.push({ op: 'fillRect', x, y, w, h, fillStyle: this.fillStyle });
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.calls.push({ op: 'clearRect', x, y, w, h, fillStyle: this.fillStyle });
  }
  measureText(text: string): TextMetrics {
    return { width: text.length * 7 } as TextMetrics;
  }
  /** Records where the image went (`y`: the destination's top, as the painters call it with 9 arguments). */
  drawImage(...a: number[]): void {
    this.calls.push({ op: 'drawImage', x: a[5] ?? 0, y: a[6] ?? 0, fillStyle: this.globalCompositeOperation });
  }
  setTransform(): void {}
  save(): void {}
  restore(): void {}

  /** The glyphs drawn on the row band [top, top + height), joined left to right (single glyphs and whole strings). */
  textIn(top: number, height: number): string {
    return this.calls
      .filter((c) => c.op === 'fillText' && c.y >= top && c.y < top + height)
      .sort((a, b) => a.x - b.x)
      .map((c) => c.text)
      .join('');
  }
}

/** Makes `HTMLCanvasElement.getContext('2d')` return a `FakeContext2D` per canvas; returns the restore. */
export function installFakeCanvas(): { contexts: FakeContext2D[]; restore: () => void } {
  const original = HTMLCanvasElement.prototype.getContext;
  const contexts: FakeContext2D[] = [];
  const made = new WeakMap<HTMLCanvasElement, FakeContext2D>();
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    let ctx = made.get(this);
    if (!ctx) {
      ctx = new FakeContext2D();
      made.set(this, ctx);
      contexts.push(ctx);
    }
    return ctx as unknown as CanvasRenderingContext2D;
  } as unknown as typeof original;
  return { contexts, restore: () => (HTMLCanvasElement.prototype.getContext = original) };
}
