import { VenueError } from '../params';
import type { RouteGroup, SignedCall } from '../signed';
import { cancelOrder, modifyOrder, placeOrder } from './orders';
import { BinanceError, mandatory } from './params';

const invalid = (name: string) => new BinanceError(-1130, `Data sent for parameter '${name}' is not valid.`);

/** A JSON-array parameter (`batchOrders`, `orderIdList`, `origClientOrderIdList`): 1 to `max` items. */
function arrayParam(call: SignedCall, name: string, max: number): unknown[] | undefined {
  const v = call.params.raw(name);
  if (v === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = typeof v === 'string' ? JSON.parse(v) : v;
  } catch {
    throw invalid(name);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > max) throw invalid(name);
  return parsed;
}

/** Item values as Binance's form parameters: strings (a JSON number or boolean is read as its text). */
const itemValues = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'object' && x !== null ? x : String(x)])) : {};

/** Runs each item through the single-order handler, in order: its answer, or its `{ code, msg }`. */
async function each(call: SignedCall, items: Array<Record<string, unknown>>, handler: (c: SignedCall) => Promise<unknown>, refusable = false): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const values of items) {
    try {
      // A test's injected refusal (`_control/faults` `refuse`) names this item: the fault answer's own error.
      if (refusable && call.venue.faults.refuses('binance', JSON.stringify(values))) throw new BinanceError(-4016, "Limit price can't be higher than the maximum price.");
      out.push(await handler({ ...call, params: call.params.child(values) }));
    } catch (err) {
      if (!(err instanceof VenueError)) throw err;
      out.push(err.answer(call.runtime.now()).body);
    }
  }
  return out;
}

/** POST /fapi/v1/batchOrders: up to 5 new orders (`batchOrders`, a JSON array of /fapi/v1/order parameters). */
async function placeBatch(call: SignedCall) {
  const list = arrayParam(call, 'batchOrders', 5);
  if (!list) throw mandatory('batchOrders');
  return each(call, list.map(itemValues), placeOrder, true);
}

/** PUT /fapi/v1/batchOrders: up to 5 modifications (each as PUT /fapi/v1/order). */
async function modifyBatch(call: SignedCall) {
  const list = arrayParam(call, 'batchOrders', 5);
  if (!list) throw mandatory('batchOrders');
  return each(call, list.map(itemValues), modifyOrder);
}

/** DELETE /fapi/v1/batchOrders: `symbol` and up to 10 `orderIdList` ids or `origClientOrderIdList` client ids. */
async function cancelBatch(call: SignedCall) {
  const symbol = call.params.opt('symbol');
  if (symbol === undefined) throw mandatory('symbol');
  const ids = arrayParam(call, 'orderIdList', 10);
  const clientIds = ids ? undefined : arrayParam(call, 'origClientOrderIdList', 10);
  if (!ids && !clientIds) throw new BinanceError(-1102, "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!");
  const items = ids ? ids.map((id) => ({ symbol, orderId: String(id) })) : (clientIds ?? []).map((c) => ({ symbol, origClientOrderId: String(c) }));
  return each(call, items, cancelOrder);
}

/** `/fapi/v1/batchOrders` (POST, PUT, DELETE): each item answered in order, as its single-order endpoint would. */
export const BINANCE_BATCH_ROUTES: RouteGroup = [
  { method: 'POST', url: '/fapi/v1/batchOrders', trade: true, handler: placeBatch },
  { method: 'PUT', url: '/fapi/v1/batchOrders', trade: true, handler: modifyBatch },
  { method: 'DELETE', url: '/fapi/v1/batchOrders', trade: true, handler: cancelBatch },
];
