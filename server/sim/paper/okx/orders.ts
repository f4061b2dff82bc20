import { fixed, type AccountKey, type OrderRecord, type PaperEngine, type PlaceRequest } from '../engine';
import { bool, decimal, int, oneOf, text, type Params } from '../params';
import { applySettings, cancelPicked, isOpen, ordersOfFills, settledHistory } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { attachMeta } from './attached';
import { fillJson, isAlgo, ordIdOf, orderJson, parseOrdId } from './format';
import { instrumentOf, itemError, missing, OkxError, paramError, refusalError } from './params';

/** OKX `clOrdId` / `algoClOrdId`: letters and digits, 1–32 (trap 21). */
export const CL_ORD_ID = (name: string) => text({ pattern: /^[A-Za-z0-9]{1,32}$/, invalid: () => itemError('51000', `Parameter ${name} error`) });
/** OKX `tag`: letters and digits, 1–16 (okx-api sends its broker tag on every POST); echoed in acks and orders. */
export const TAG = text({ pattern: /^[A-Za-z0-9]{1,16}$/, invalid: () => itemError('51000', 'Parameter tag error') });
export const SIDE = oneOf(['buy', 'sell'] as const, { required: true });
/** Net mode only: posSide omitted or `net` (long/short needs long_short_mode: 51000 as OKX answers). */
export const POS_SIDE = oneOf(['net'] as const, { invalid: () => itemError('51000', 'Parameter posSide error') });

const ORDER = {
  tdMode: oneOf(['cross', 'isolated'] as const, { required: true, invalid: (m) => (m === 'cash' ? itemError('51000', 'Parameter tdMode error') : paramError('tdMode')) }),
  side: SIDE,
  ordType: oneOf(['market', 'limit', 'post_only', 'fok', 'ioc', 'optimal_limit_ioc'] as const, { required: true }),
  posSide: POS_SIDE,
  sz: decimal({ required: true }),
};

const ack = (o: OrderRecord, ts: number) => ({ clOrdId: o.clientId, ordId: ordIdOf(o), ts: String(ts), sCode: '0', sMsg: '' });
type Item = Record<string, unknown>;

/** Sets the symbol's margin mode to the order's `tdMode` when it differs (OKX chooses it per order). */
function applyTdMode(engine: PaperEngine, id: string, symbol: string, tdMode: string, at: number): OkxError | null {
  const refusal = applySettings(engine, id, symbol, at, { mode: tdMode === 'isolated' ? 'isolated' : 'cross' });
  return refusal ? itemError('51000', `Parameter tdMode error: ${symbol} has a ${engine.settings(id, symbol).marginMode} position or open orders`) : null;
}

/** Places `req` after switching the symbol to its `tdMode`: the engine's result, or the tdMode refusal. */
export async function placeIn({ runtime, engine }: SignedCall, account: AccountKey, req: PlaceRequest, tdMode: string) {
  const r = await runtime.run(account, (id, at) => {
    const modeErr = applyTdMode(engine, id, req.symbol, tdMode, at);
    return modeErr ? { err: modeErr } : { placed: engine.place(id, req, at) };
  });
  if ('err' in r) throw r.err;
  return r.placed;
}

/** One `trade/order` item → its ack (or a per-item OkxError). */
async function placeOne(call: SignedCall, p: Params) {
  const spec = instrumentOf(call.venue, p.opt('instId'));
  const o = p.read(ORDER);
  const market = o.ordType === 'market' || o.ordType === 'optimal_limit_ioc';
  const price = market ? undefined : p.decimal('px');
  if (price === undefined && !market) throw itemError('51000', 'Parameter px error');
  const { clOrdId, reduceOnly, tag } = p.read({ clOrdId: CL_ORD_ID('clOrdId'), reduceOnly: bool({ default: false }), tag: TAG });
  const req: PlaceRequest = {
    symbol: spec.symbol,
    side: o.side === 'buy' ? 'BUY' : 'SELL',
    type: price === undefined ? 'MARKET' : 'LIMIT',
    qty: o.sz,
    price,
    timeInForce: o.ordType === 'ioc' || o.ordType === 'optimal_limit_ioc' ? 'IOC' : o.ordType === 'fok' ? 'FOK' : 'GTC',
    postOnly: o.ordType === 'post_only',
    reduceOnly,
    clientId: clOrdId,
    meta: { tdMode: o.tdMode, ...(tag ? { tag } : {}), ...attachMeta(p) },
  };
  const placed = await placeIn(call, call.account, req, o.tdMode);
  if (!placed.ok) throw refusalError(placed.refusal, { clOrdId: clOrdId ?? '', tag: tag ?? '' });
  return { clOrdId: clOrdId ?? '', ordId: ordIdOf(placed.value), tag: tag ?? '', ts: String(call.runtime.now()), sCode: '0', sMsg: '', subCode: '' };
}

/**
 * A batch endpoint (`batch-orders`, `cancel-batch-orders`, `amend-batch-orders`): up to 20 items, each
 * run through the single-order handler in order and answered on its own — `code` "0" all succeeded,
 * "1" all failed, "2" some failed, `data` one result per item (a failure's sCode / sMsg in its place).
 */
function batchOf(one: (call: SignedCall) => Promise<Item>, idsOf: (p: Params) => Item, refusable = false) {
  return async (call: SignedCall) => {
    const { items, runtime } = call;
    if (items.length === 0 || items.length > 20) throw paramError('batch');
    const out: Item[] = [];
    for (const p of items) {
      try {
        // A test's injected refusal (`_control/faults` `refuse`) names this item's client id: the fault answer's own error.
        if (refusable && call.venue.faults.refuses('okx', p.opt('clOrdId') ?? '')) throw new OkxError('51006', 'Order price is not within the price limit');
        out.push(await one({ ...call, params: p }));
      } catch (err) {
        if (!(err instanceof OkxError)) throw err;
        out.push({ ...idsOf(p), ts: String(runtime.now()), ...err.item, sCode: err.item?.sCode ?? err.code, sMsg: err.item?.sMsg ?? err.msg });
      }
    }
    const failed = out.filter((x) => x.sCode !== '0').length;
    if (failed === out.length) throw new OkxError('1', 'All operations failed', undefined, 200, out);
    if (failed) throw new OkxError('2', 'Bulk operation partially succeeded.', undefined, 200, out);
    return out;
  };
}

/** The order an `ordId` / `clOrdId` names among the account's orders (a waiting algo is not an order yet). */
function findOrder(engine: PaperEngine, id: string, p: Params): OrderRecord | undefined {
  const ordId = p.opt('ordId');
  const clOrdId = p.opt('clOrdId');
  if (ordId === undefined && clOrdId === undefined) throw missing('ordId');
  const n = parseOrdId(ordId);
  return engine.retained(id).find((o) => {
    if (isAlgo(o) && o.triggeredAt === null) return false;
    return ordId !== undefined ? n !== null && (isAlgo(o) ? o.releasedId === n : o.id === n) : !isAlgo(o) && o.clientId === clOrdId;
  });
}

async function getOrder({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('instId'));
  let o = await runtime.run(account, (id) => findOrder(engine, id, p) ?? null);
  if (!o) {
    // Older than what is held in memory: the store.
    const n = parseOrdId(p.opt('ordId'));
    const store = await runtime.history();
    const dbId = await runtime.dbId(account);
    const rows = n !== null ? await store.ordersByIds(dbId, [n]) : (await store.orders(dbId, { symbol: spec.symbol, limit: 500, newest: true })).filter((x) => !isAlgo(x) && x.clientId === p.opt('clOrdId'));
    o = rows[0] ?? null;
  }
  if (!o || o.symbol !== spec.symbol) throw itemError('51603', 'Order does not exist.');
  return [orderJson(spec, o, { tdMode: o.meta.tdMode })];
}

async function amendOne({ venue, params: p, runtime, engine, account }: SignedCall): Promise<Item> {
  const spec = instrumentOf(venue, p.opt('instId'));
  const { newSz, newPx } = p.read({ newSz: decimal(), newPx: decimal() });
  if (newSz === undefined && newPx === undefined) throw itemError('51000', 'Parameter newSz or newPx error');
  const r = await runtime.run(account, (id, at) => {
    const o = findOrder(engine, id, p);
    if (!o || o.symbol !== spec.symbol || !isOpen(o)) return null;
    return engine.amend(id, { id: o.id }, { qty: newSz, price: newPx }, at);
  });
  const ids = { ordId: p.opt('ordId') ?? '', clOrdId: p.opt('clOrdId') ?? '', reqId: p.opt('reqId') ?? '' };
  if (!r) throw itemError('51503', 'Order modification failed as the order has been filled, canceled or does not exist.', ids);
  if (!r.ok) throw refusalError(r.refusal, ids);
  return { ...ids, ...ack(r.value, runtime.now()) };
}

async function cancelOne(call: SignedCall): Promise<Item> {
  const { venue, params: p, engine } = call;
  const spec = instrumentOf(venue, p.opt('instId'));
  const r = await cancelPicked(call, (id) => {
    const o = findOrder(engine, id, p);
    return o && o.symbol === spec.symbol && isOpen(o) ? o : undefined;
  });
  const ids = { ordId: p.opt('ordId') ?? '', clOrdId: p.opt('clOrdId') ?? '' };
  if (!r) throw itemError('51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.', ids);
  if (!r.ok) throw refusalError(r.refusal, ids);
  return ack(r.value, call.runtime.now());
}

const CLOSE = {
  mgnMode: oneOf(['cross', 'isolated'] as const, { required: true }),
  posSide: POS_SIDE,
  ccy: text(),
  autoCxl: bool({ default: false }),
  clOrdId: CL_ORD_ID('clOrdId'),
  tag: TAG,
};

/**
 * `close-position`: the whole position of `instId` in `mgnMode` closed by a market reduce-only order
 * (51023 when there is none in that mode); `autoCxl: true` first cancels the symbol's pending
 * reduce-only (closing) orders. Answers `{ instId, posSide, clOrdId, tag }`.
 */
async function closePosition({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('instId'));
  const c = p.read(CLOSE);
  const r = await runtime.run(account, (id, at) => {
    const pos = engine.positions(id, spec.symbol).find((v) => fixed(v.size) !== 0n);
    if (!pos || pos.marginMode !== c.mgnMode) return null;
    if (c.autoCxl) for (const o of engine.openOrders(id, spec.symbol)) if (o.reduceOnly && !isAlgo(o)) engine.cancel(id, { id: o.id }, at);
    return engine.place(id, {
      symbol: spec.symbol,
      side: fixed(pos.size) > 0n ? 'SELL' : 'BUY',
      type: 'MARKET',
      qty: pos.size.replace(/^-/, ''),
      reduceOnly: true,
      clientId: c.clOrdId,
      meta: { tdMode: c.mgnMode, ...(c.tag ? { tag: c.tag } : {}) },
    }, at);
  });
  if (!r) throw new OkxError('51023', 'Position does not exist.');
  if (!r.ok) throw refusalError(r.refusal, { clOrdId: c.clOrdId ?? '' });
  return [{ instId: spec.symbol, posSide: c.posSide ?? 'net', clOrdId: c.clOrdId ?? '', tag: c.tag ?? '' }];
}

/** `instType` (SWAP only: others list nothing) and an optional `instId`. */
export function scopeOf({ venue, params: p }: SignedCall): { none: true } | { none: false; instId: string | undefined } {
  const instType = p.opt('instType');
  if (instType !== undefined && instType !== 'SWAP') return { none: true };
  const instId = p.opt('instId');
  if (instId !== undefined) instrumentOf(venue, instId);
  return { instId, none: false };
}

/** Page size: 100 by default, 1 to 100. */
export const LIMIT = int({ default: 100, min: 1, max: 100 });

/** An id bound (`after`, `before`), read as an integer when it is compared: not one is OKX's 51000. */
export function idBound(p: Params, name: string): (() => bigint) | null {
  const v = p.opt(name);
  if (v === undefined) return null;
  return () => {
    try {
      return BigInt(v);
    } catch {
      throw paramError(name);
    }
  };
}

/** Newest first: older than `after`, newer than `before` (ids), at most `limit`. */
function pageBy<T>(rows: T[], key: (x: T) => string, p: Params) {
  const after = idBound(p, 'after');
  const before = idBound(p, 'before');
  const list = rows.filter((x) => (after === null || BigInt(key(x)) < after()) && (before === null || BigInt(key(x)) > before()));
  return list.slice(0, p.read({ limit: LIMIT }).limit);
}

async function pendingOrders(call: SignedCall) {
  const scope = scopeOf(call);
  if (scope.none) return [];
  const { runtime, engine, account } = call;
  const open = await runtime.run(account, (id) => engine.openOrders(id, scope.instId).filter((o) => o.status !== 'UNTRIGGERED'));
  open.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  return pageBy(open, ordIdOf, call.params).map((o) => orderJson(engine.instrument(o.symbol)!, o, { tdMode: o.meta.tdMode }));
}

async function orderHistory(call: SignedCall) {
  const scope = scopeOf(call);
  if (scope.none) return [];
  const { store, dbId } = await settledHistory(call);
  const rows = await store.orders(dbId, { symbol: scope.instId, limit: 1000, newest: true });
  const visible = rows.filter((o) => (!isAlgo(o) || o.triggeredAt !== null) && !isOpen(o));
  visible.sort((a, b) => Number(BigInt(ordIdOf(b)) - BigInt(ordIdOf(a))));
  return pageBy(visible, ordIdOf, call.params).map((o) => orderJson(call.engine.instrument(o.symbol)!, o, { tdMode: o.meta.tdMode }));
}

// Fills of the last 3 days and the archive answer alike here (one store).
async function fills(call: SignedCall) {
  const scope = scopeOf(call);
  if (scope.none) return [];
  const { params: p, engine } = call;
  const { store, dbId } = await settledHistory(call);
  const after = p.opt('after');
  const rows = await store.fills(dbId, { symbol: scope.instId, limit: 1000, newest: true });
  const page = rows.filter((f) => after === undefined || f.id < Number(after)).sort((a, b) => b.id - a.id).slice(0, p.read({ limit: LIMIT }).limit);
  const orders = await ordersOfFills(store, dbId, page);
  const ordId = p.opt('ordId');
  return page
    .map((f) => {
      const o = orders.get(f.orderId);
      return fillJson(engine.instrument(f.symbol)!, f, o ? ordIdOf(o) : `17${String(f.orderId).padStart(16, '0')}`, o && !isAlgo(o) ? o.clientId : '', o?.meta.tag);
    })
    .filter((f) => ordId === undefined || f.ordId === ordId);
}

const placeIds = (p: Params): Item => ({ clOrdId: p.opt('clOrdId') ?? '', ordId: '', tag: p.opt('tag') ?? '', subCode: '' });
const orderIds = (p: Params): Item => ({ ordId: p.opt('ordId') ?? '', clOrdId: p.opt('clOrdId') ?? '' });

/**
 * `/api/v5/trade/*`: order, batch-orders, amend-order, amend-batch-orders, cancel-order,
 * cancel-batch-orders, close-position, orders-pending, orders-history, fills. Acks are OKX's
 * `{ ordId, clOrdId, sCode: "0", sMsg: "", ts }`; the state is read back or pushed. The batch endpoints
 * run the single-order handlers item by item (ccxt places single orders through batch-orders too).
 */
export const OKX_ORDER_ROUTES: RouteGroup = [
  { method: 'POST', url: '/api/v5/trade/order', trade: true, handler: async (call) => [await placeOne(call, call.params)] },
  { method: 'POST', url: '/api/v5/trade/batch-orders', trade: true, handler: batchOf((call) => placeOne(call, call.params), placeIds, true) },
  { method: 'GET', url: '/api/v5/trade/order', handler: getOrder },
  { method: 'POST', url: '/api/v5/trade/amend-order', trade: true, handler: async (call) => [await amendOne(call)] },
  { method: 'POST', url: '/api/v5/trade/amend-batch-orders', trade: true, handler: batchOf(amendOne, (p) => ({ ...orderIds(p), reqId: p.opt('reqId') ?? '' })) },
  { method: 'POST', url: '/api/v5/trade/cancel-order', trade: true, handler: async (call) => [await cancelOne(call)] },
  { method: 'POST', url: '/api/v5/trade/cancel-batch-orders', trade: true, handler: batchOf(cancelOne, orderIds) },
  { method: 'POST', url: '/api/v5/trade/close-position', trade: true, handler: closePosition },
  { method: 'GET', url: '/api/v5/trade/orders-pending', handler: pendingOrders },
  { method: 'GET', url: '/api/v5/trade/orders-history', handler: orderHistory },
  { method: 'GET', url: '/api/v5/trade/fills', handler: fills },
  { method: 'GET', url: '/api/v5/trade/fills-history', handler: fills },
];
