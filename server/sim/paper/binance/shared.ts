import { decimalsOf, trimZeros, type AccountKey, type OrderRecord } from '../engine';
import { text, type Params } from '../params';
import { isOpen } from '../queries';
import type { VenueContext } from '../venue';
import { binanceOrderId, isAlgo } from './format';
import { BinanceError } from './params';

/** Binance's newClientOrderId / clientAlgoId rule (binance.md §6). */
export const CLIENT_ID = text({ pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, invalid: () => new BinanceError(-4015, 'Client order id is not valid.') });

/** More decimals than the filter allows is -1111; a wrong multiple is left to the engine (-4014 / -4023). */
export function checkPrecision(value: string | undefined, unit: string): void {
  if (value !== undefined && decimalsOf(trimZeros(value)) > decimalsOf(unit)) throw new BinanceError(-1111, 'Precision is over the maximum defined for this asset.');
}

export interface OrderLookup {
  orderId?: number;
  clientId?: string;
}

export function lookupOf(p: Params, idName: string, clientName: string): OrderLookup {
  const orderId = p.int(idName);
  const clientId = p.opt(clientName);
  if (orderId === undefined && clientId === undefined) {
    throw new BinanceError(-1102, `Param '${idName}' or '${clientName}' must be sent, but both were empty/null!`);
  }
  return { orderId, clientId };
}

/** Does `o` answer to this /fapi/v1/order lookup? (A waiting conditional is not an order yet.) */
export function matchesOrder(o: OrderRecord, symbol: string, l: OrderLookup): boolean {
  if (o.symbol !== symbol || (isAlgo(o) && o.triggeredAt === null)) return false;
  if (l.orderId !== undefined) return binanceOrderId(o) === l.orderId;
  return o.clientId === l.clientId;
}

/** Does `o` answer to this /fapi/v1/algoOrder lookup? */
export function matchesAlgo(o: OrderRecord, l: OrderLookup): boolean {
  if (!isAlgo(o)) return false;
  return l.orderId !== undefined ? o.id === l.orderId : o.clientId === l.clientId;
}

/**
 * Finds an order: first among those the engine holds (state at `now`), then in the store (older,
 * closed ones). Open orders win over closed ones with the same client id.
 */
export async function findOrder(venue: VenueContext, account: AccountKey, match: (o: OrderRecord) => boolean, l: OrderLookup): Promise<OrderRecord | null> {
  const { runtime } = venue;
  const held = await runtime.run(account, (id) => runtime.engine.retained(id).filter(match));
  const best = pickBest(held);
  if (best) return best;
  const store = await runtime.history();
  const dbId = await runtime.dbId(account);
  const stored = l.orderId !== undefined ? await store.ordersByIds(dbId, [l.orderId]) : await store.orders(dbId, { limit: 50, newest: true }).then((rows) => rows.filter((o) => o.clientId === l.clientId));
  return pickBest(stored.filter(match));
}

function pickBest(list: OrderRecord[]): OrderRecord | null {
  let best: OrderRecord | null = null;
  for (const o of list) if (!best || (isOpen(o) && !isOpen(best)) || (isOpen(o) === isOpen(best) && o.id > best.id)) best = o;
  return best;
}
