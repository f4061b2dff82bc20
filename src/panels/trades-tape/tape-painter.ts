import type { OrderFlowStatus, TradePrint } from '../../api/market/order-flow';
import type { CanvasSurface, SurfacePainter } from '../shared/canvas/canvas-surface';

export const ROW_PX = 17;
const PAD = 4;
/** Column fractions: time | price | size. */
const COLS = [1.1, 1, 1];
const COL_SUM = 3.1;

export interface TapeFilter {
  /** Prints smaller than this (in the exchange's trade unit) are left out; 0 shows all. */
  minSize: number;
  /** Prints at least this large are highlighted; 0 highlights none. */
  largeSize: number;
  sizeDecimals: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `HH:MM:SS.mmm` in the browser's time zone. */
export function tapeTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export const TAPE_STATUS_TEXT: Record<OrderFlowStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  resyncing: 'Live',
  reconnecting: 'Reconnecting…',
  error: 'Error',
};

/** A painted row as text (tests: made on demand). */
export interface PaintedPrint {
  time: string;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  large: boolean;
}

/** What each row shows: a row is drawn again only when its print (or how it is shown) changed. */
class Rows {
  readonly id: Array<string | null>;
  readonly price: Array<string | null>;
  readonly time: Float64Array;
  readonly s: Float64Array;
  readonly count: Int32Array;
  /** 0 empty, 1 buy, 2 sell; +4 when large. */
  readonly look: Int8Array;
  constructor(readonly n: number) {
    this.id = new Array<string | null>(n).fill(null);
    this.price = new Array<string | null>(n).fill(null);
    this.time = new Float64Array(n);
    this.s = new Float64Array(n);
    this.count = new Int32Array(n);
    this.look = new Int8Array(n).fill(-1);
  }
  /** Moves every row down by `k` (the newest prints come in at the top). */
  shift(k: number): void {
    for (let i = this.n - 1; i >= k; i--) {
      this.id[i] = this.id[i - k]!;
      this.price[i] = this.price[i - k]!;
    }
    this.time.copyWithin(k, 0, this.n - k);
    this.s.copyWithin(k, 0, this.n - k);
    this.count.copyWithin(k, 0, this.n - k);
    this.look.copyWithin(k, 0, this.n - k);
  }
}

/**
 * Paints the newest prints that pass the filter into one canvas, newest at the top: time, price, size
 * (`×n` for an aggregate of n trades), the taker's side as colour, large prints highlighted. When new
 * prints arrive the painted rows are moved down on the canvas itself (one image copy) and only the new
 * rows drawn; times and sizes are drawn glyph by glyph. Nothing is allocated per paint.
 */
export class TapePainter implements SurfacePainter {
  private readonly shown: Rows;
  /** The prints of the rows (references into the feed's ring), for the snapshot. */
  private readonly rows: Array<TradePrint | null>;
  private n = 0;
  private dirtyAll = true;
  private prints: readonly TradePrint[] = [];
  private filter: TapeFilter | null = null;

  constructor(
    private readonly surface: CanvasSurface,
    readonly count: number,
  ) {
    this.shown = new Rows(count);
    this.rows = new Array<TradePrint | null>(count).fill(null);
  }

  /** Paints so far (the bench counts them per frame). */
  paints = 0;

  invalidate(): void {
    this.dirtyAll = true;
  }

  update(prints: readonly TradePrint[], f: TapeFilter): void {
    if (this.filter && (f.minSize !== this.filter.minSize || f.largeSize !== this.filter.largeSize || f.sizeDecimals !== this.filter.sizeDecimals)) this.dirtyAll = true;
    this.prints = prints;
    this.filter = f;
    this.paint();
  }

  paint(): void {
    const f = this.filter;
    if (!f) return;
    this.paints++;
    const s = this.surface;
    if (this.dirtyAll) {
      this.dirtyAll = false;
      this.shown.look.fill(-1);
      s.clear(0, 0, s.width, s.height);
    } else this.scroll(f);
    let r = 0;
    for (let i = 0; i < this.prints.length && r < this.count; i++) {
      const t = this.prints[i]!;
      if (f.minSize > 0 && t.s < f.minSize) continue;
      this.row(r++, t, f);
    }
    this.n = r;
    for (; r < this.count; r++) this.row(r, null, f);
  }

  /** The painted rows, newest first, as text. */
  painted(): PaintedPrint[] {
    const d = this.filter?.sizeDecimals ?? 3;
    const large = this.filter?.largeSize ?? 0;
    return this.rows.slice(0, this.n).flatMap((t) => (t ? [{ time: tapeTime(t.time), price: t.price, size: t.count > 1 ? `${t.s.toFixed(d)} ×${t.count}` : t.s.toFixed(d), side: t.side, large: large > 0 && t.s >= large }] : []));
  }

  /** New prints on top: the rows already painted move down on the canvas instead of being drawn again. */
  private scroll(f: TapeFilter): void {
    const top = this.shown.id[0];
    if (top === null || top === undefined) return;
    let k = 0;
    for (let i = 0; i < this.prints.length && k < this.count; i++) {
      const t = this.prints[i]!;
      if (f.minSize > 0 && t.s < f.minSize) continue;
      if (t.id === top && t.time === this.shown.time[0]) break;
      k++;
    }
    if (k === 0 || k >= this.count) return;
    this.shown.shift(k);
    for (let i = this.count - 1; i >= k; i--) this.rows[i] = this.rows[i - k]!;
    const { ctx, canvas, width, height, dpr, pixelWidth, pixelHeight } = this.surface;
    const moved = Math.min(height, (this.count - k) * ROW_PX);
    if (!ctx || moved <= 0) return;
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(canvas, 0, 0, pixelWidth, Math.min(pixelHeight, Math.round(moved * dpr)), 0, k * ROW_PX, width, moved);
    ctx.globalCompositeOperation = 'source-over';
    for (let i = 0; i < k; i++) this.shown.look[i] = -1;
  }

  private row(i: number, t: TradePrint | null, f: TapeFilter): void {
    const sh = this.shown;
    const large = t !== null && f.largeSize > 0 && t.s >= f.largeSize;
    const look = t === null ? 0 : (t.side === 'buy' ? 1 : 2) + (large ? 4 : 0);
    if (t === null ? sh.look[i] === 0 : sh.look[i] === look && sh.id[i] === t.id && sh.time[i] === t.time && sh.s[i] === t.s && sh.count[i] === t.count && sh.price[i] === t.price) return;
    sh.look[i] = look;
    sh.id[i] = t?.id ?? null;
    sh.price[i] = t?.price ?? null;
    sh.time[i] = t?.time ?? 0;
    sh.s[i] = t?.s ?? 0;
    sh.count[i] = t?.count ?? 0;
    this.rows[i] = t;
    this.draw(i, t, large, f.sizeDecimals);
  }

  private draw(i: number, t: TradePrint | null, large: boolean, decimals: number): void {
    const s = this.surface;
    const { ctx, width: w, colors, glyphs } = s;
    const top = i * ROW_PX;
    if (!ctx || top >= s.height) return;
    this.surface.clear(0, top, w, ROW_PX);
    if (!t) return;
    const buy = t.side === 'buy';
    if (large) {
      ctx.fillStyle = buy ? colors.buyLight : colors.sellLight;
      ctx.fillRect(0, top, w, ROW_PX);
    }
    s.setFont(large);
    // Whole pixels: a fractional coordinate handed to the canvas is boxed (an allocation per call).
    const y = top + (ROW_PX >> 1);
    const x2 = Math.round(PAD + ((w - 2 * PAD) * (COLS[0]! + COLS[1]!)) / COL_SUM);
    ctx.fillStyle = colors.dimmed;
    glyphs.clear().time(t.time).drawLeft(ctx, PAD, y);
    ctx.fillStyle = buy ? colors.buy : colors.sell;
    ctx.textAlign = 'right';
    ctx.fillText(t.price, x2, y);
    ctx.textAlign = 'left';
    glyphs.clear().fixed(t.s, decimals);
    if (t.count > 1) glyphs.text(' ×').int(t.count);
    glyphs.drawRight(ctx, w - PAD, y);
    s.setFont(false);
  }
}
