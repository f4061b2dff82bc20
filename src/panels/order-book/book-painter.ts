import { add, dec, div, str, sub } from '../../api/contracts/decimal';
import type { BookView, OrderFlowStatus } from '../../api/market/order-flow';
import { fillGroups, type Grid, type GroupRow } from './group-levels';

/** The elements of one row, made once; the painter only writes their text, widths and attributes. */
export interface BookRowElements {
  row: HTMLElement;
  size: HTMLElement;
  price: HTMLElement;
  total: HTMLElement;
  mine: HTMLElement;
  sizeBar: HTMLElement;
  totalBar: HTMLElement;
}

export interface BookElements {
  root: HTMLElement;
  /** Index 0 is the best ask (drawn just above the spread). */
  asks: BookRowElements[];
  /** Index 0 is the best bid (drawn just below the spread). */
  bids: BookRowElements[];
  spread: HTMLElement;
  status: HTMLElement;
}

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

const setText = (el: HTMLElement, text: string) => {
  if (el.textContent !== text) el.textContent = text;
};

/** What a row shows, as numbers: a text or width is made only when its number moved (no strings per frame). */
interface Shown {
  /** The row's price (`data-price` and its text), null when empty; the own-order text. */
  price: string | null;
  mine: string | undefined;
  s: number;
  total: number;
  decimals: number;
  sizePermille: number;
  totalPermille: number;
}

/** A bar's width, to 0.1 %: written (and its text made) only when it moved, never read back. */
function setPermille(el: HTMLElement, fraction: number, shown: Shown, key: 'sizePermille' | 'totalPermille'): void {
  const permille = Math.round(fraction * 1000);
  if (shown[key] === permille) return;
  shown[key] = permille;
  el.style.width = `${permille / 10}%`;
}

/** Writes a text whose last value is known to differ (no read of the old one: reading makes a string). */
const putText = (el: HTMLElement, text: string) => {
  el.textContent = text;
};

const setAttr = (el: HTMLElement, name: string, value: string | null) => {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
};

/**
 * Paints a book view into the fixed rows: at most once a frame (the feed's onChange is coalesced), no
 * React render, and a DOM write only where a text, width or attribute changed. The group rows are
 * reused between frames.
 */
export class BookPainter {
  private readonly askRows: GroupRow[] = [];
  private readonly bidRows: GroupRow[] = [];
  private readonly shown = new Map<BookRowElements, Shown>();
  /** The best levels the spread line was made from: it is made again only when they change. */
  private spreadOf: [string | undefined, string | undefined] = [undefined, undefined];

  constructor(private readonly els: BookElements) {}

  paint(view: BookView, o: PaintOptions): void {
    const { els } = this;
    const na = fillGroups(view.asks, 1, o.grid, o.ticks, this.askRows, els.asks.length);
    const nb = fillGroups(view.bids, 0, o.grid, o.ticks, this.bidRows, els.bids.length);
    let maxSize = 0;
    for (let i = 0; i < na; i++) maxSize = Math.max(maxSize, this.askRows[i]!.s);
    for (let i = 0; i < nb; i++) maxSize = Math.max(maxSize, this.bidRows[i]!.s);
    const maxTotal = Math.max(na ? this.askRows[na - 1]!.total : 0, nb ? this.bidRows[nb - 1]!.total : 0);
    this.side(els.asks, this.askRows, na, 'ask', o.own.asks, maxSize, maxTotal, o.sizeDecimals);
    this.side(els.bids, this.bidRows, nb, 'bid', o.own.bids, maxSize, maxTotal, o.sizeDecimals);
    const bid = view.bids[0]?.price;
    const ask = view.asks[0]?.price;
    if (bid !== this.spreadOf[0] || ask !== this.spreadOf[1] || !els.spread.textContent) {
      this.spreadOf[0] = bid;
      this.spreadOf[1] = ask;
      setText(els.spread, spreadText(view));
    }
    setText(els.status, view.status === 'error' && view.error ? view.error : STATUS_TEXT[view.status]);
    setAttr(els.root, 'data-status', view.status);
    setAttr(els.root, 'data-stale', view.status === 'live' ? null : '');
  }

  private shownOf(r: BookRowElements): Shown {
    let shown = this.shown.get(r);
    if (!shown) {
      // Unknown: the first paint writes every cell.
      shown = { price: '\u0000', mine: '\u0000', s: NaN, total: NaN, decimals: -1, sizePermille: -1, totalPermille: -1 };
      this.shown.set(r, shown);
    }
    return shown;
  }

  private side(rows: BookRowElements[], groups: GroupRow[], n: number, side: 'bid' | 'ask', own: ReadonlyMap<number, string>, maxSize: number, maxTotal: number, decimals: number): void {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const shown = this.shownOf(r);
      if (i >= n) {
        if (shown.price !== null) {
          setText(r.price, '');
          setText(r.size, '');
          setText(r.total, '');
          setAttr(r.row, 'data-price', null);
          shown.price = null;
        }
        if (shown.mine !== undefined) {
          setText(r.mine, '');
          setAttr(r.row, 'data-own', null);
          shown.mine = undefined;
        }
        setPermille(r.sizeBar, 0, shown, 'sizePermille');
        setPermille(r.totalBar, 0, shown, 'totalPermille');
        shown.s = shown.total = NaN;
        continue;
      }
      const g = groups[i]!;
      if (shown.price !== g.price) {
        setText(r.price, g.price);
        setAttr(r.row, 'data-price', g.price);
        setAttr(r.row, 'data-side', side);
        shown.price = g.price;
      }
      if (shown.s !== g.s || shown.decimals !== decimals) putText(r.size, g.s.toFixed(decimals));
      if (shown.total !== g.total || shown.decimals !== decimals) putText(r.total, g.total.toFixed(decimals));
      shown.s = g.s;
      shown.total = g.total;
      shown.decimals = decimals;
      const mine = own.get(g.units);
      if (shown.mine !== mine) {
        setText(r.mine, mine === undefined ? '' : `● ${mine}`);
        setAttr(r.row, 'data-own', mine === undefined ? null : '');
        shown.mine = mine;
      }
      setPermille(r.sizeBar, maxSize > 0 ? g.s / maxSize : 0, shown, 'sizePermille');
      setPermille(r.totalBar, maxTotal > 0 ? g.total / maxTotal : 0, shown, 'totalPermille');
    }
  }
}

/** Spread and mid from the best levels, exactly (the exchange's decimal strings). */
export function spreadText(view: BookView): string {
  const bid = view.bids[0];
  const ask = view.asks[0];
  if (!bid || !ask) return 'Spread —';
  const b = dec(bid.price);
  const a = dec(ask.price);
  return `Spread ${str(sub(a, b))} · Mid ${str(div(add(a, b), dec(2), Math.max(a.scale, b.scale) + 1))}`;
}
