import type { OrderFlowStatus, TradePrint } from '../../api/market/order-flow';

export interface TapeRowElements {
  row: HTMLElement;
  time: HTMLElement;
  price: HTMLElement;
  size: HTMLElement;
}

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

const setText = (el: HTMLElement, text: string) => {
  if (el.textContent !== text) el.textContent = text;
};
const setAttr = (el: HTMLElement, name: string, value: string | null) => {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
};

export const TAPE_STATUS_TEXT: Record<OrderFlowStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  resyncing: 'Live',
  reconnecting: 'Reconnecting…',
  error: 'Error',
};

/**
 * The texts made for a print. The ring reuses its print objects for later trades, so they are checked
 * against the print's id, time, count and size before reuse: a print is formatted once, not once per
 * row it passes through as newer ones push it down.
 */
interface PrintTexts {
  id: string;
  time: number;
  count: number;
  s: number;
  decimals: number;
  timeText: string;
  sizeText: string;
}
const made = new WeakMap<TradePrint, PrintTexts>();

function textsOf(t: TradePrint, decimals: number): PrintTexts {
  let m = made.get(t);
  if (m && m.id === t.id && m.time === t.time && m.count === t.count && m.s === t.s && m.decimals === decimals) return m;
  m ??= { id: '', time: 0, count: 0, s: 0, decimals: 0, timeText: '', sizeText: '' };
  m.id = t.id;
  m.time = t.time;
  m.count = t.count;
  m.s = t.s;
  m.decimals = decimals;
  m.timeText = tapeTime(t.time);
  m.sizeText = t.count > 1 ? `${t.s.toFixed(decimals)} ×${t.count}` : t.s.toFixed(decimals);
  made.set(t, m);
  return m;
}

/** What each row shows, so the DOM is neither read nor written while it stays (reading a text makes a string). */
interface RowShown {
  time: string;
  price: string;
  size: string;
  side: string | null;
  large: boolean;
}
const shownRows = new WeakMap<TapeRowElements, RowShown>();

function writeRow(el: TapeRowElements, time: string, price: string, size: string, side: string | null, large: boolean): void {
  let shown = shownRows.get(el);
  if (!shown) {
    shown = { time: '\u0000', price: '\u0000', size: '\u0000', side: '\u0000', large: !large };
    shownRows.set(el, shown);
  }
  if (shown.time !== time) setText(el.time, (shown.time = time));
  if (shown.price !== price) setText(el.price, (shown.price = price));
  if (shown.size !== size) setText(el.size, (shown.size = size));
  if (shown.side !== side) setAttr(el.row, 'data-side', (shown.side = side));
  if (shown.large !== large) {
    shown.large = large;
    setAttr(el.row, 'data-large', large ? '' : null);
  }
}

/**
 * Writes the newest prints that pass the filter into the fixed rows, newest at the top: time, price,
 * size (with `×n` for an aggregate of n trades), the taker's side as the row's colour, large prints
 * marked. Only changed texts and attributes touch the DOM.
 */
export function paintTape(rows: TapeRowElements[], prints: readonly TradePrint[], f: TapeFilter): number {
  let r = 0;
  for (let i = 0; i < prints.length && r < rows.length; i++) {
    const t = prints[i]!;
    if (f.minSize > 0 && t.s < f.minSize) continue;
    const texts = textsOf(t, f.sizeDecimals);
    writeRow(rows[r++]!, texts.timeText, t.price, texts.sizeText, t.side, f.largeSize > 0 && t.s >= f.largeSize);
  }
  const shown = r;
  for (; r < rows.length; r++) writeRow(rows[r]!, '', '', '', null, false);
  return shown;
}
