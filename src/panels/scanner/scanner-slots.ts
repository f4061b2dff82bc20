import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import type { ScannerValueField } from '../../api/contracts/scanner';
import type { BookRow } from './scanner-book';
import { formatCompact, formatCountdown, formatFunding, formatPercent, formatPlainPercent, formatPrice } from './scanner-format';

/**
 * The table's rows are a fixed set of DOM "slots", one per visible line, that are filled with
 * whichever rows are in view. A repaint (a few a second) or a scroll writes only the text and
 * attributes that changed, straight into the slots: no React reconciliation of hundreds of cells, no
 * DOM nodes moved when the order changes — a re-sort is just new text in the same lines.
 */

export interface SlotElements {
  row: HTMLElement;
  star: HTMLElement;
  pair: HTMLElement;
  exchange: HTMLElement;
  cells: Record<ScannerValueField, HTMLElement>;
}

/** What a slot shows now, to skip writes that would change nothing. */
export interface SlotState {
  key: string | null;
  version: number;
  flash: number;
  favorite: boolean;
  active: boolean;
  minute: number;
}

export const EMPTY_SLOT: SlotState = { key: null, version: -1, flash: -1, favorite: false, active: false, minute: -1 };

export interface PaintContext {
  generation: number;
  favorites: ReadonlySet<string>;
  activeKey: string | null;
  /** Minutes since epoch (the funding countdown). */
  minute: number;
}

type Tone = 'up' | 'down' | null;
const sign = (v: number | null): Tone => (v === null || v === 0 ? null : v > 0 ? 'up' : 'down');

const CELLS: ReadonlyArray<[ScannerValueField, (row: BookRow, minute: number) => string, (row: BookRow) => Tone]> = [
  ['last', (r) => formatPrice(r.last), () => null],
  ['changePercent', (r) => formatPercent(r.changePercent), (r) => sign(r.changePercent)],
  ['quoteVolume', (r) => formatCompact(r.quoteVolume), () => null],
  ['rangePercent', (r) => formatPlainPercent(r.rangePercent), () => null],
  ['fundingRate', (r) => formatFunding(r.fundingRate), (r) => sign(r.fundingRate)],
  ['nextFundingTime', (r, minute) => formatCountdown(r.nextFundingTime, minute * 60_000), () => null],
  ['openInterest', (r) => formatCompact(r.openInterest), () => null],
  ['atrPercent', (r) => formatPlainPercent(r.atrPercent), () => null],
];

function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

function setAttr(el: HTMLElement, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) {
    el.setAttribute(name, value);
  }
}

/** Fills one slot with `row` (or hides it); returns its new state. */
export function paintSlot(el: SlotElements, prev: SlotState, row: BookRow | undefined, ctx: PaintContext): SlotState {
  if (!row) {
    if (prev.key !== null) {
      el.row.hidden = true;
      setAttr(el.row, 'data-key', null);
    }
    return EMPTY_SLOT;
  }
  const flash = row.flashGen === ctx.generation ? ctx.generation : 0;
  const favorite = ctx.favorites.has(row.key);
  const active = row.key === ctx.activeKey;
  if (prev.key === row.key && prev.version === row.version && prev.flash === flash && prev.favorite === favorite && prev.active === active && prev.minute === ctx.minute) {
    return prev;
  }
  const exchange = EXCHANGE_DISPLAY_NAMES[row.exchange];
  if (prev.key === null) el.row.hidden = false;
  if (prev.key !== row.key) {
    setAttr(el.row, 'data-key', row.key);
    setAttr(el.row, 'aria-label', `${row.symbol} on ${exchange}`);
    setText(el.pair, row.symbol);
    setAttr(el.pair, 'title', `${row.base} / ${row.quote} · ${row.category}`);
    setText(el.exchange, exchange);
  }
  if (prev.key !== row.key || prev.favorite !== favorite) {
    setAttr(el.star, 'data-on', favorite ? '' : null);
    setAttr(el.star, 'aria-pressed', String(favorite));
    setAttr(el.star, 'aria-label', favorite ? `Remove ${row.symbol} on ${exchange} from favourites` : `Add ${row.symbol} on ${exchange} to favourites`);
  }
  setAttr(el.row, 'data-active', active ? 'true' : null);
  for (const [field, text, tone] of CELLS) {
    const cell = el.cells[field];
    setText(cell, text(row, ctx.minute));
    setAttr(cell, 'data-tone', tone(row));
    const dir = flash ? row.flash[field] : undefined;
    setAttr(cell, 'data-flash', dir ?? null);
  }
  return { key: row.key, version: row.version, flash, favorite, active, minute: ctx.minute };
}
