import type { AccountKey, OrderRecord } from '../engine';
import { int, type Params } from '../params';
import { isOpen } from '../queries';
import type { SignedCall } from '../signed';
import { BYBIT_INSTRUMENTS } from './economics';
import { engineOrderId } from './format';
import { BybitError, CATEGORY, instrumentOf, type BybitCategory } from './params';

/** Bybit's orderLinkId: up to 36 numbers, letters, dashes and underscores (create-order.mdx). */
export const ORDER_LINK_ID = /^[A-Za-z0-9_-]{1,36}$/;

export interface OrderRef {
  /** The engine id behind `orderId` (null: not one of this account's ids). */
  id?: number | null;
  orderLinkId?: string;
}

/** `orderId` or `orderLinkId` (orderId wins when both are given, as on Bybit). */
export function orderRefOf(p: Params, account: AccountKey, required: boolean): OrderRef {
  const orderId = p.opt('orderId');
  const orderLinkId = p.opt('orderLinkId');
  if (orderId !== undefined) return { id: engineOrderId(account, orderId) };
  if (orderLinkId !== undefined) return { orderLinkId };
  if (required) throw new BybitError(10001, 'params error: orderId or orderLinkId is required');
  return {};
}

export const byRef = (ref: OrderRef): boolean => ref.id !== undefined || ref.orderLinkId !== undefined;

export const matchesRef = (o: OrderRecord, ref: OrderRef): boolean =>
  ref.id !== undefined ? ref.id !== null && o.id === ref.id : ref.orderLinkId !== undefined ? o.meta.orderLinkId === ref.orderLinkId : true;

/** The open order a reference names on `symbol` (amend / cancel act on open orders only). */
export function openOrderOf(orders: OrderRecord[], symbol: string, ref: OrderRef): OrderRecord | undefined {
  return orders.find((o) => o.symbol === symbol && isOpen(o) && matchesRef(o, ref));
}

/** Orders held in memory first (open + the last 500 closed), then the store (older ones). */
export async function findOrders({ runtime, engine, account }: Pick<SignedCall, 'runtime' | 'engine' | 'account'>, ref: OrderRef): Promise<OrderRecord[]> {
  if (ref.id === null) return [];
  const held = await runtime.run(account, (id) => engine.retained(id).filter((o) => matchesRef(o, ref)));
  if (held.length) return held;
  const store = await runtime.history();
  const dbId = await runtime.dbId(account);
  if (ref.id !== undefined) return store.ordersByIds(dbId, [ref.id]);
  return (await store.orders(dbId, { limit: 500, newest: true })).filter((o) => matchesRef(o, ref));
}

/**
 * The symbols a `symbol` / `baseCoin` / `settleCoin` filter selects in a category (symbol first,
 * then baseCoin, then settleCoin, as Bybit's priority); null = no filter given.
 */
export function symbolFilter(p: Params, category: BybitCategory): Set<string> | null {
  const symbol = p.opt('symbol');
  if (symbol !== undefined) return new Set([symbol]);
  const base = p.opt('baseCoin');
  const settle = p.opt('settleCoin');
  if (base === undefined && settle === undefined) return null;
  return new Set(
    BYBIT_INSTRUMENTS.instruments(category)
      .filter((i) => (base !== undefined ? i.base === base : i.settle === settle))
      .map((i) => i.symbol),
  );
}

/** A list request's scope: its category, the symbol (checked when given) and the symbol filter. */
export function scopeOf({ venue, params: p }: Pick<SignedCall, 'venue' | 'params'>): { category: BybitCategory; symbol: string | undefined; symbols: Set<string> | null } {
  const { category } = p.read({ category: CATEGORY });
  const symbol = p.opt('symbol');
  if (symbol !== undefined) instrumentOf(venue, symbol, category);
  return { category, symbol, symbols: symbolFilter(p, category) };
}

/** An opaque page cursor (an offset into the filtered, ordered list). */
export const encodeCursor = (offset: number): string => encodeURIComponent(Buffer.from(`page_args=${offset}`).toString('base64url'));

export function decodeCursor(p: Params): number {
  const c = p.opt('cursor');
  if (c === undefined) return 0;
  let text: string;
  try {
    text = Buffer.from(decodeURIComponent(c), 'base64url').toString();
  } catch {
    throw new BybitError(10001, 'params error: cursor invalid');
  }
  const m = /^page_args=(\d{1,9})$/.exec(text);
  if (!m) throw new BybitError(10001, 'params error: cursor invalid');
  return Number(m[1]);
}

/** One page of `list` and the cursor of the next ('' when there is none). */
export function page<T>(list: T[], p: Params, max: number, dflt: number): { rows: T[]; nextPageCursor: string } {
  const { limit } = p.read({ limit: int({ default: dflt, min: 1, max }) });
  const offset = decodeCursor(p);
  const rows = list.slice(offset, offset + limit);
  return { rows, nextPageCursor: offset + limit < list.length ? encodeCursor(offset + limit) : '' };
}

const WEEK_MS = 7 * 24 * 60 * 60_000;

/** startTime / endTime: 7 days by default, at most 7 days apart (Bybit's history rule). */
export function timeWindow(p: Params, now: number): { startTime: number; endTime: number } {
  const { startTime: start, endTime: end } = p.read({ startTime: int(), endTime: int() });
  if (start !== undefined && end !== undefined) {
    if (end < start || end - start > WEEK_MS) throw new BybitError(10001, 'params error: The time range between startTime and endTime cannot exceed 7 days');
    return { startTime: start, endTime: end };
  }
  if (start !== undefined) return { startTime: start, endTime: start + WEEK_MS };
  if (end !== undefined) return { startTime: end - WEEK_MS, endTime: end };
  return { startTime: now - WEEK_MS, endTime: now };
}
