import { add, dec, div, str, sub } from '../../api/contracts/decimal';
import type { BookView, OrderFlowStatus } from '../../api/market/order-flow';
import type { CanvasSurface, SurfacePainter } from '../shared/canvas/canvas-surface';
import { fillGroups, type Grid, type GroupRow } from './group-levels';

/** A row's height and the spread band's, in CSS pixels. */
export const ROW_PX = 17;
export const SPREAD_PX = 20;
const PAD = 4;
/** Column fractions: price | size | cumulative | own orders (the DOM book's grid). */
const COLS = [1.1, 1, 1, 0.9];
const COL_SUM = COLS.reduce((a, b) => a + b, 0);

export interface PaintOptions {
  grid: Grid | null;
  ticks: number;
  sizeDecimals: number;
  /** The trader's resting orders per side by group units (see `ownOrderKey`): the text to show. */
  own: { bids: ReadonlyMap<number, string>; asks: ReadonlyMap<number, string> };
}

export const STATUS_TEXT: Record<OrderFlowStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  resyncing: 'Resyncing…',
  reconnecting: 'Reconnecting…',
  error: 'Error',
};

/** A painted row as text (tests and the accessible summary; made on demand). */
export interface PaintedLevel {
  price: string;
  size: string;
  total: string;
  mine: string;
  /** The size bar's width as a fraction of the largest level's (0–1, to 0.001). */
  bar: number;
  /** The row's middle, in CSS pixels from the canvas's top (where a click takes this level). */
  y: number;
}

/** What each row shows, so a row is drawn again only when one of these moved. */
class Shown {
  readonly price: Array<string | null>;
  readonly mine: Array<string | undefined>;
  readonly s: Float64Array;
  readonly total: Float64Array;
  readonly sizeW: Int32Array;
  readonly totalW: Int32Array;
  constructor(n: number) {
    this.price = new Array<string | null>(n).fill(null);
    this.mine = new Array<string | undefined>(n).fill(undefined);
    this.s = new Float64Array(n);
    this.total = new Float64Array(n);
    this.sizeW = new Int32Array(n);
    this.totalW = new Int32Array(n);
  }
  forget(): void {
    this.price.fill('\u0000');
    this.sizeW.fill(-1);
  }
}

/** Where a pointer is: a side and a row (0 = best), or nothing. */
export interface BookHit {
  side: 'bid' | 'ask';
  index: number;
}

/**
 * Paints the book into one canvas — asks above the spread band (best just above it), bids below — at
 * most once a frame, redrawing only the rows whose price, size, total, own mark or bar width moved.
 * Sizes and totals are drawn glyph by glyph (no string per number); prices are the exchange's strings.
 * The grouped rows and the per-row memory are reused: a paint allocates nothing in steady state.
 */
export class BookPainter implements SurfacePainter {
  readonly askRows: GroupRow[] = [];
  readonly bidRows: GroupRow[] = [];
  na = 0;
  nb = 0;
  maxSize = 0;
  private readonly shown: { ask: Shown; bid: Shown };
  private dirtyAll = true;
  private spreadOf: [string | undefined, string | undefined] = ['\u0000', '\u0000'];
  private hover: BookHit | null = null;
  private readonly mineText = new Map<string, string>();
  view: BookView | null = null;
  options: PaintOptions | null = null;

  constructor(
    private readonly surface: CanvasSurface,
    readonly rows: number,
  ) {
    this.shown = { ask: new Shown(rows), bid: new Shown(rows) };
  }

  /** Paints so far (the bench counts them per frame). */
  paints = 0;

  invalidate(): void {
    this.dirtyAll = true;
  }

  /** Takes the feed's view and the panel's options, then paints. */
  update(view: BookView, o: PaintOptions): void {
    this.view = view;
    this.options = o;
    this.paint();
  }

  setHover(hit: BookHit | null): void {
    if (hit?.side === this.hover?.side && hit?.index === this.hover?.index) return;
    const old = this.hover;
    this.hover = hit;
    if (old) this.shown[old.side].sizeW[old.index] = -1;
    if (hit) this.shown[hit.side].sizeW[hit.index] = -1;
    this.paint();
  }

  paint(): void {
    const { view, options: o } = this;
    if (!view || !o) return;
    this.paints++;
    this.na = fillGroups(view.asks, 1, o.grid, o.ticks, this.askRows, this.rows);
    this.nb = fillGroups(view.bids, 0, o.grid, o.ticks, this.bidRows, this.rows);
    let maxSize = 0;
    for (let i = 0; i < this.na; i++) maxSize = Math.max(maxSize, this.askRows[i]!.s);
    for (let i = 0; i < this.nb; i++) maxSize = Math.max(maxSize, this.bidRows[i]!.s);
    this.maxSize = maxSize;
    const maxTotal = Math.max(this.na ? this.askRows[this.na - 1]!.total : 0, this.nb ? this.bidRows[this.nb - 1]!.total : 0);
    const s = this.surface;
    if (this.dirtyAll) {
      this.dirtyAll = false;
      this.shown.ask.forget();
      this.shown.bid.forget();
      this.spreadOf[0] = '\u0000';
      s.clear(0, 0, s.width, s.height);
    }
    this.side('ask', this.askRows, this.na, o.own.asks, maxSize, maxTotal, o.sizeDecimals);
    this.side('bid', this.bidRows, this.nb, o.own.bids, maxSize, maxTotal, o.sizeDecimals);
    this.spread(view);
  }

  /** The top of row `index` of a side, in CSS pixels (asks go up from the band, bids down). */
  rowTop(side: 'bid' | 'ask', index: number): number {
    const band = this.bandTop();
    return side === 'ask' ? band - (index + 1) * ROW_PX : band + SPREAD_PX + index * ROW_PX;
  }

  /** The row under a point `y` CSS pixels from the canvas's top (null: the band, or no level there). */
  hit(y: number): BookHit | null {
    const band = this.bandTop();
    if (y < band) {
      const index = Math.floor((band - y) / ROW_PX);
      return index < this.na ? { side: 'ask', index } : null;
    }
    if (y < band + SPREAD_PX) return null;
    const index = Math.floor((y - band - SPREAD_PX) / ROW_PX);
    return index < this.nb ? { side: 'bid', index } : null;
  }

  /** The painted rows of a side, best first, as text (made on demand: tests, accessibility). */
  painted(side: 'bid' | 'ask'): PaintedLevel[] {
    const rows = side === 'ask' ? this.askRows : this.bidRows;
    const n = side === 'ask' ? this.na : this.nb;
    const own = this.options ? this.options.own[side === 'ask' ? 'asks' : 'bids'] : new Map<number, string>();
    const d = this.options?.sizeDecimals ?? 3;
    return rows.slice(0, n).map((g, i) => ({ price: g.price, size: g.s.toFixed(d), total: g.total.toFixed(d), mine: own.get(g.units) ?? '', bar: this.maxSize > 0 ? Math.round((g.s / this.maxSize) * 1000) / 1000 : 0, y: this.rowTop(side, i) + ROW_PX / 2 }));
  }

  /** The band's top: the middle of the canvas (where nothing is laid out, as in jsdom: below every ask row). */
  private bandTop(): number {
    const h = this.surface.height || 2 * this.rows * ROW_PX + SPREAD_PX;
    return Math.floor((h - SPREAD_PX) / 2);
  }

  private side(side: 'bid' | 'ask', groups: GroupRow[], n: number, own: ReadonlyMap<number, string>, maxSize: number, maxTotal: number, decimals: number): void {
    const shown = this.shown[side];
    const w = this.surface.width;
    for (let i = 0; i < this.rows; i++) {
      const top = this.rowTop(side, i);
      const visible = top + ROW_PX > 0 && top < this.surface.height;
      const g = i < n ? groups[i]! : null;
      const price = g ? g.price : null;
      const mine = g ? own.get(g.units) : undefined;
      const sizeW = g && maxSize > 0 ? Math.round((g.s / maxSize) * w) : 0;
      const totalW = g && maxTotal > 0 ? Math.round((g.total / maxTotal) * w) : 0;
      if (shown.price[i] === price && shown.mine[i] === mine && shown.sizeW[i] === sizeW && shown.totalW[i] === totalW && (!g || (shown.s[i] === g.s && shown.total[i] === g.total))) continue;
      shown.price[i] = price;
      shown.mine[i] = mine;
      shown.sizeW[i] = sizeW;
      shown.totalW[i] = totalW;
      shown.s[i] = g ? g.s : 0;
      shown.total[i] = g ? g.total : 0;
      if (visible) this.drawRow(side, i, top, g, mine, sizeW, totalW, decimals);
    }
  }

  private drawRow(side: 'bid' | 'ask', i: number, top: number, g: GroupRow | null, mine: string | undefined, sizeW: number, totalW: number, decimals: number): void {
    const { ctx, width: w, colors, glyphs } = this.surface;
    if (!ctx) return;
    this.surface.clear(0, top, w, ROW_PX);
    if (!g) return;
    const hovered = this.hover?.side === side && this.hover.index === i;
    if (hovered) {
      ctx.fillStyle = colors.hover;
      ctx.fillRect(0, top, w, ROW_PX);
    }
    const light = side === 'ask' ? colors.sellLight : colors.buyLight;
    ctx.fillStyle = light;
    ctx.globalAlpha = 0.35;
    ctx.fillRect(w - totalW, top + 1, totalW, ROW_PX - 2);
    ctx.globalAlpha = 1;
    ctx.fillRect(w - sizeW, top + 1, sizeW, ROW_PX - 2);
    if (mine !== undefined) {
      ctx.fillStyle = colors.own;
      ctx.fillRect(0, top, 3, ROW_PX);
    }
    // Whole pixels: a fractional coordinate handed to the canvas is boxed (an allocation per call).
    const y = top + (ROW_PX >> 1);
    const inner = w - 2 * PAD;
    const x2 = Math.round(PAD + (inner * (COLS[0]! + COLS[1]!)) / COL_SUM);
    const x3 = Math.round(PAD + (inner * (COLS[0]! + COLS[1]! + COLS[2]!)) / COL_SUM);
    ctx.fillStyle = side === 'ask' ? colors.sell : colors.buy;
    ctx.fillText(g.price, PAD, y);
    ctx.fillStyle = colors.text;
    glyphs.clear().fixed(g.s, decimals).drawRight(ctx, x2, y);
    glyphs.clear().fixed(g.total, decimals).drawRight(ctx, x3, y);
    if (mine !== undefined) {
      ctx.fillStyle = colors.own;
      ctx.textAlign = 'right';
      ctx.fillText(this.mineOf(mine), w - PAD, y);
      ctx.textAlign = 'left';
    }
  }

  /** "● 0.01": made once per own-order size (they change when the trader's orders do). */
  private mineOf(mine: string): string {
    let t = this.mineText.get(mine);
    if (t === undefined) {
      if (this.mineText.size > 200) this.mineText.clear();
      t = `● ${mine}`;
      this.mineText.set(mine, t);
    }
    return t;
  }

  /** The band: spread and mid from the best levels, drawn only when they changed. */
  private spread(view: BookView): void {
    const bid = view.bids[0]?.price;
    const ask = view.asks[0]?.price;
    if (bid === this.spreadOf[0] && ask === this.spreadOf[1]) return;
    this.spreadOf[0] = bid;
    this.spreadOf[1] = ask;
    const { ctx, width: w, colors, glyphs } = this.surface;
    if (!ctx) return;
    const top = this.bandTop();
    this.surface.clear(0, top, w, SPREAD_PX);
    ctx.fillStyle = colors.border;
    ctx.fillRect(0, top, w, 1);
    ctx.fillRect(0, top + SPREAD_PX - 1, w, 1);
    ctx.fillStyle = colors.dimmed;
    const b = view.bids[0];
    const a = view.asks[0];
    glyphs.clear().text('Spread ');
    if (!a || !b) glyphs.char(45);
    else {
      const scale = Math.max(decimalsOf(a.price), decimalsOf(b.price));
      glyphs.trimmed(a.p - b.p, scale).text(' · Mid ').trimmed((a.p + b.p) / 2, scale + 1);
    }
    glyphs.drawLeft(ctx, Math.round((w - glyphs.width()) / 2), top + (SPREAD_PX >> 1));
  }
}

/** Digits after the point of a decimal string (no allocation). */
function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Spread and mid from the best levels, exactly (the exchange's decimal strings). */
export function spreadText(view: Pick<BookView, 'bids' | 'asks'>): string {
  const bid = view.bids[0];
  const ask = view.asks[0];
  if (!bid || !ask) return 'Spread —';
  const b = dec(bid.price);
  const a = dec(ask.price);
  return `Spread ${str(sub(a, b))} · Mid ${str(div(add(a, b), dec(2), Math.max(a.scale, b.scale) + 1))}`;
}
