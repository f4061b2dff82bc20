import type { ExchangeId } from '../../api/contracts/common';
import type { FibRecord, HorizontalLine, PatchServerSettingsBody, RectangleRecord, ServerSettings } from '../../api/contracts/settings';
import { DRAWINGS_PER_EXCHANGE_MAX, fibRecordSchema } from '../../api/contracts/settings';
// Types only: a value import of the engine would pull pixi into the workstation chunk.
import type { Drawing, DrawingColor, FibRetracementDrawing, HorizontalLineDrawing, RectangleDrawing } from '../../engine';
import type { FibSelection } from '../../state/drawing-settings';

/**
 * The bridge between the engine's drawing records and the server settings (STYLE pattern 7).
 *
 * Source of truth: the **server settings** hold every drawing record, per exchange and kind —
 * `horizontalLines` (SPEC §3: id, symbol, price; plus our colour), `rectangles` and `fibs` (SPEC §3
 * fib selection fields) — so drawings follow the user to any device. The device-local drawing
 * settings keep only the tool (mode) and colour; fib selections an older build kept there are moved
 * to the server once (`importLocalFibs`) and then removed from the device.
 *
 * A chart shows the drawings of its exchange + symbol, whatever its interval: every chart of one
 * pair shows the same drawings. Pure functions: the panel feeds them the cached settings.
 */

export interface Market {
  exchange: ExchangeId;
  symbol: string;
}

type DrawingKey = 'horizontalLines' | 'rectangles' | 'fibs';
const KEY_OF: Record<Drawing['kind'], DrawingKey> = { line: 'horizontalLines', rectangle: 'rectangles', 'fib-retracement': 'fibs' };

/**
 * Stored fib rect ↔ engine points: the stored `start` is the 0 level and `end` the 1 level; the
 * engine draws ratio 0 at `p2` and ratio 1 at `p1`. Mapped by level, so a retracement looks the same
 * whichever build saved it.
 */
function fibToDrawing(f: FibRecord): FibRetracementDrawing {
  return {
    id: f.id,
    kind: 'fib-retracement',
    rect: { p1: { time: f.rect.endTime, price: f.rect.endPrice }, p2: { time: f.rect.startTime, price: f.rect.startPrice } },
    fibColor: f.fibColor,
    fibAmountOfPositiveLines: f.fibAmountOfPositiveLines,
    fibIncrement: f.fibIncrement,
    fibMainValue: f.fibMainValue,
    fibCustomValue: f.fibCustomValue,
  };
}

function fibFromDrawing(d: FibRetracementDrawing, market: Market): FibRecord {
  return {
    id: d.id,
    exchange: market.exchange,
    symbol: market.symbol,
    rect: { startTime: d.rect.p2.time, startPrice: d.rect.p2.price, endTime: d.rect.p1.time, endPrice: d.rect.p1.price },
    fibColor: d.fibColor,
    fibAmountOfPositiveLines: d.fibAmountOfPositiveLines,
    fibIncrement: d.fibIncrement,
    fibMainValue: d.fibMainValue,
    fibCustomValue: d.fibCustomValue,
  };
}

function lineToDrawing(l: HorizontalLine): HorizontalLineDrawing {
  return { id: l.id, kind: 'line', price: l.price, color: (l.color ?? 'blue') satisfies DrawingColor, symbol: l.symbol };
}

function rectangleToDrawing(r: RectangleRecord): RectangleDrawing {
  return { id: r.id, kind: 'rectangle', p1: { ...r.p1 }, p2: { ...r.p2 }, color: r.color };
}

/** The drawings one chart shows: its exchange's records of its symbol, lines first, then rectangles, then fibs. */
export function drawingsForMarket(settings: Pick<ServerSettings, DrawingKey> | undefined, market: Market): Drawing[] {
  if (!settings) return [];
  const mine = <T extends { symbol: string }>(list: readonly T[] | undefined) => (list ?? []).filter((r) => r.symbol === market.symbol);
  return [
    ...mine(settings.horizontalLines[market.exchange]).map(lineToDrawing),
    ...mine(settings.rectangles[market.exchange]).map(rectangleToDrawing),
    ...mine(settings.fibs[market.exchange]).map(fibToDrawing),
  ];
}

type StoredRecord = HorizontalLine | RectangleRecord | FibRecord;

/** The stored record of an engine drawing, stamped with the chart's market. */
export function recordOf(drawing: Drawing, market: Market): StoredRecord {
  switch (drawing.kind) {
    case 'line':
      return { id: drawing.id, symbol: market.symbol, price: drawing.price, color: drawing.color };
    case 'rectangle':
      return { id: drawing.id, symbol: market.symbol, p1: { ...drawing.p1 }, p2: { ...drawing.p2 }, color: drawing.color };
    case 'fib-retracement':
      return fibFromDrawing(drawing, market);
  }
}

/** Replaces `list` entry by id (keeping its place) or appends; the oldest go past the cap. */
function upsert<T extends { id: string }>(list: readonly T[] | undefined, record: T): T[] {
  const current = list ?? [];
  const at = current.findIndex((r) => r.id === record.id);
  const next = at >= 0 ? current.map((r, i) => (i === at ? record : r)) : [...current, record];
  return next.length > DRAWINGS_PER_EXCHANGE_MAX ? next.slice(next.length - DRAWINGS_PER_EXCHANGE_MAX) : next;
}

/**
 * The settings change that stores a drawing the engine committed (created, moved or resized) on the
 * chart of `market`. Only the one key of its kind is sent, with only this exchange's list in it: the
 * server merges per-exchange maps by exchange, so another device's edits on other exchanges survive.
 */
export function commitDrawingPatch(settings: ServerSettings, market: Market, drawing: Drawing): PatchServerSettingsBody {
  const record = recordOf(drawing, market);
  const { exchange } = market;
  switch (drawing.kind) {
    case 'line':
      return { horizontalLines: { [exchange]: upsert(settings.horizontalLines[exchange], record as HorizontalLine) } };
    case 'rectangle':
      return { rectangles: { [exchange]: upsert(settings.rectangles[exchange], record as RectangleRecord) } };
    case 'fib-retracement':
      return { fibs: { [exchange]: upsert(settings.fibs[exchange], record as FibRecord) } };
  }
}

/** The settings change that removes a drawing; null when it is not stored (nothing to send). */
export function deleteDrawingPatch(settings: ServerSettings, market: Market, drawing: Pick<Drawing, 'id' | 'kind'>): PatchServerSettingsBody | null {
  const key = KEY_OF[drawing.kind];
  const byExchange = settings[key] as Partial<Record<ExchangeId, readonly { id: string }[]>>;
  const list = byExchange[market.exchange];
  if (!list?.some((r) => r.id === drawing.id)) return null;
  return { [key]: { [market.exchange]: list.filter((r) => r.id !== drawing.id) } } as PatchServerSettingsBody;
}

/**
 * Fib selections an older build kept on this device, moved into the server's `fibs` (merged by id;
 * the server's copy wins). Returns the change to send (null when there is nothing new) and the ids
 * the device may forget once it is stored.
 */
export function importLocalFibs(settings: ServerSettings, local: readonly FibSelection[]): { patch: PatchServerSettingsBody | null; ids: string[] } {
  if (local.length === 0) return { patch: null, ids: [] };
  // Only the exchanges that gain a record are sent (the server merges the map by exchange).
  const fibs: Partial<Record<ExchangeId, FibRecord[]>> = {};
  const known = new Set(Object.values(settings.fibs).flatMap((list) => (list ?? []).map((f) => f.id)));
  const ids: string[] = [];
  let added = false;
  for (const selection of local) {
    if (known.has(selection.id)) {
      ids.push(selection.id);
      continue;
    }
    // One the server would refuse (an over-long field) stays on the device rather than fail the rest.
    const parsed = fibRecordSchema.safeParse(selection);
    if (!parsed.success) continue;
    known.add(selection.id);
    fibs[selection.exchange] = upsert(fibs[selection.exchange] ?? settings.fibs[selection.exchange], parsed.data);
    ids.push(selection.id);
    added = true;
  }
  return { patch: added ? { fibs } : null, ids };
}
