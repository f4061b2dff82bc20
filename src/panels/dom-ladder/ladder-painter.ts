import type { BookView } from '../../api/market/order-flow/types';
import type { CanvasSurface, SurfacePainter } from '../shared/canvas/canvas-surface';
import { nearestRow, sizeText, sumSide, type LadderGrid } from './ladder-rows';

/** A row's height with its border, in CSS pixels. */
export const ROW_PX = 19;
/** Columns: own buy orders | bid size | price | ask size | own sell orders (fractions of the width). */
const COLS = [1, 1, 1.1, 1, 1];
const COL_SUM = 5.1;
/** Where nothing is laid out (jsdom): the width hit-testing assumes. */
const NOMINAL_WIDTH = 510;
const PAD = 4;

export type LadderColumn = 'buy-orders' | 'bid' | 'price' | 'ask' | 'sell-orders';
const COLUMN_NAMES: readonly LadderColumn[] = ['buy-orders', 'bid', 'price', 'ask', 'sell-orders'];

/** A painted row as text (tests, tools: made on demand). */
export interface PaintedLadderRow {
  price: string;
  label: string;
  bid: string;
  ask: string;
  last: boolean;
  /** The row's middle, in CSS pixels from the ladder's top. */
  y: number;
}

export interface PaintedLadder {
  rows: PaintedLadderRow[];
  /** Each column's middle, in CSS pixels from the ladder's left (where a click lands in it). */
  cols: Record<LadderColumn, number>;
}

/**
 * Paints the ladder into one canvas: per row the bid size and bar, the price, the ask size and bar,
 * the last trade's row highlighted. On each frame the book is summed into the rows (arrays kept
 * between frames) and only the rows whose sizes, bar widths or mark moved are drawn again, sizes glyph
 * by glyph: nothing is allocated per update. The trader's orders and the position's entry are DOM
 * (ladder-grid.tsx) over the canvas: they change when the orders do, not with the book.
 */
export class LadderPainter implements SurfacePainter {
  private grid: LadderGrid | null = null;
  private count = 0;
  bids = new Float64Array(0);
  asks = new Float64Array(0);
  private shownBids = new Float64Array(0);
  private shownAsks = new Float64Array(0);
  private bidW = new Int32Array(0);
  private askW = new Int32Array(0);
  lastRow = -1;
  private paintedLast = -1;
  private dirtyAll = true;
  private book: BookView | null = null;
  private last: number | null = null;

  constructor(private readonly surface: CanvasSurface) {}

  /** Paints so far (the bench counts them per frame). */
  paints = 0;

  invalidate(): void {
    this.dirtyAll = true;
  }

  /** New rows (prices): every row is drawn again. */
  setGrid(grid: LadderGrid | null): void {
    if (grid === this.grid) return;
    this.grid = grid;
    const n = grid?.prices.length ?? 0;
    if (n !== this.count) {
      this.count = n;
      this.bids = new Float64Array(n);
      this.asks = new Float64Array(n);
      this.shownBids = new Float64Array(n);
      this.shownAsks = new Float64Array(n);
      this.bidW = new Int32Array(n);
      this.askW = new Int32Array(n);
    }
    this.dirtyAll = true;
  }

  update(book: BookView, last: number | null): void {
    this.book = book;
    this.last = last;
    this.paint();
  }

  paint(): void {
    const { grid, book, surface: s } = this;
    if (!grid || !book) return;
    this.paints++;
    const n = this.count;
    const largest = Math.max(sumSide(book.bids, grid, this.bids, true), sumSide(book.asks, grid, this.asks, false));
    this.lastRow = this.last === null ? -1 : nearestRow(grid, this.last, n);
    if (this.dirtyAll) {
      this.dirtyAll = false;
      this.shownBids.fill(Number.NaN);
      this.paintedLast = -2;
      s.clear(0, 0, s.width, s.height);
    }
    const colW = this.width() / COL_SUM;
    for (let i = 0; i < n; i++) {
      const bw = largest > 0 ? Math.round((this.bids[i]! / largest) * colW) : 0;
      const aw = largest > 0 ? Math.round((this.asks[i]! / largest) * colW) : 0;
      // The last trade's mark moved: its old row and its new one are drawn again.
      const mark = this.lastRow !== this.paintedLast && (i === this.lastRow || i === this.paintedLast);
      if (!mark && this.shownBids[i] === this.bids[i] && this.shownAsks[i] === this.asks[i] && this.bidW[i] === bw && this.askW[i] === aw) continue;
      this.shownBids[i] = this.bids[i]!;
      this.shownAsks[i] = this.asks[i]!;
      this.bidW[i] = bw;
      this.askW[i] = aw;
      this.drawRow(i, bw, aw);
    }
    this.paintedLast = this.lastRow;
  }

  /** The row under `y` CSS pixels from the top (-1: none) and the column under `x`. */
  hit(x: number, y: number): { row: number; col: LadderColumn } {
    const row = Math.floor(y / ROW_PX);
    const f = (x / this.width()) * COL_SUM;
    let col = 0;
    for (let acc = COLS[0]!; col < COLS.length - 1 && f >= acc; acc += COLS[++col]!);
    return { row: row >= 0 && row < this.count ? row : -1, col: COLUMN_NAMES[col]! };
  }

  painted(): PaintedLadder {
    const w = this.width();
    let x = 0;
    const cols = {} as Record<LadderColumn, number>;
    COLS.forEach((c, i) => {
      cols[COLUMN_NAMES[i]!] = ((x + c / 2) / COL_SUM) * w;
      x += c;
    });
    const grid = this.grid;
    const rows = grid ? grid.prices.map((price, i) => ({ price, label: grid.labels[i]!, bid: sizeText(this.bids[i] ?? 0), ask: sizeText(this.asks[i] ?? 0), last: i === this.lastRow, y: i * ROW_PX + ROW_PX / 2 })) : [];
    return { rows, cols };
  }

  private width(): number {
    return this.surface.width || NOMINAL_WIDTH;
  }

  private drawRow(i: number, bw: number, aw: number): void {
    const { ctx, width: w, colors, glyphs } = this.surface;
    const grid = this.grid;
    const top = i * ROW_PX;
    if (!ctx || !grid || top >= this.surface.height) return;
    // Whole pixels: a fractional coordinate handed to the canvas is boxed (an allocation per call).
    const colW = w / COL_SUM;
    const priceX = Math.round(2 * colW);
    const askX = Math.round(3.1 * colW);
    const askEnd = Math.round(4.1 * colW);
    const h = ROW_PX - 1;
    this.surface.clear(0, top, w, ROW_PX);
    ctx.fillStyle = colors.border;
    ctx.fillRect(0, top + h, w, 1);
    ctx.fillStyle = colors.buyLight;
    ctx.fillRect(priceX - bw, top, bw, h);
    ctx.fillStyle = colors.sellLight;
    ctx.fillRect(askX, top, aw, h);
    const last = i === this.lastRow;
    if (last) {
      ctx.fillStyle = colors.highlight;
      ctx.fillRect(priceX, top, askX - priceX, h);
    }
    const y = top + (h >> 1);
    ctx.fillStyle = colors.text;
    glyphs.clear().compact(this.bids[i]!).drawRight(ctx, priceX - PAD, y);
    glyphs.clear().compact(this.asks[i]!).drawRight(ctx, askEnd - PAD, y);
    this.surface.setFont(last);
    ctx.textAlign = 'center';
    ctx.fillText(grid.labels[i]!, (priceX + askX) >> 1, y);
    ctx.textAlign = 'left';
    this.surface.setFont(false);
  }
}
