import { add, cmp, dec, min, roundToStep, str, sub, type Decimal } from '../../../src/api/contracts/decimal';
import type { Order, Position } from '../../../src/api/contracts/trading';
import { TradeRefusedError, type NewOrder, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import { flattenId } from '../trading/ids';
import type { GuardLeg } from './payloads';

// The bracket guard's small shared pieces (bracket-guard.ts): what one round reads, and how a failure is told apart.

/** Break-even is beyond the price now: nothing is wrong, the round just ends early. */
export class WaitForPrice extends Error {}

/** Consecutive failed rounds after which the job gives up (and says so). */
export const MAX_FAILURES = 30;
export const OPEN = new Set(['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED']);

/** The exchange refused (as opposed to: could not be reached, or asked to slow down). */
export const refused = (err: unknown): err is TradeRefusedError => err instanceof TradeRefusedError && err.status === 422;
export const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

export interface Round {
  /** The bracket's open orders, tagged with role and bracket id. */
  open: Order[];
  /** The position on the bracket's side, when there is one. */
  position: Position | undefined;
  entry: Order | undefined;
  /** Read from the key's account state (not the exchange). */
  memory: boolean;
}

/**
 * Cancels each; an order the exchange no longer knows is gone already. Any other refusal (the exchange away, a
 * rate-limit hold: rethrown as is, so the guard's loop waits it out) throws after all were tried: the round is tried
 * again on what is then open, and after its retries the guard stops saying so — never done with the orders live.
 */
export async function cancelAll(conn: Pick<TradingConnector, 'cancel'>, inst: TradingInstrument, orders: Order[], what: string): Promise<void> {
  const failed: unknown[] = [];
  for (const o of orders) {
    await conn.cancel(inst, o.id).catch((err: unknown) => {
      if (!(err instanceof TradeRefusedError && err.status === 404)) failed.push(err);
    });
  }
  const hold = failed.find((e) => e instanceof TradeRefusedError && e.status === 429);
  if (hold) throw hold;
  if (failed.length) throw new Error(`could not cancel ${failed.length} of the bracket's ${orders.length} ${what}: ${reason(failed[0])}`);
}

/** A protective leg of the bracket as the order that places it (reduce-only, on the exit side). */
export function legOrder(inst: TradingInstrument, long: boolean, l: GuardLeg): NewOrder {
  return {
    symbol: inst.exchangeSymbol,
    side: long ? 'SELL' : 'BUY',
    type: l.type,
    qty: l.qty,
    ...(l.type === 'TAKE_PROFIT' && l.price ? { price: l.price } : {}),
    triggerPrice: l.triggerPrice,
    reduceOnly: true,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: l.clientOrderId,
  };
}

/** How many times a refused bracket's entry is closed in parts (it went on filling while its cancel failed) before the guard gives up. */
const MAX_FLATTENS = 20;

/**
 * The market orders that closed what a refused bracket's entry filled, found by their client ids (`…X`, then `…X2`,
 * `…X3`: a later part of the fill), and the id of the next one. An open one counts for its size, a done one for its fill.
 */
export async function flattened(conn: Pick<TradingConnector, 'orderByClientId'>, inst: TradingInstrument, bracketId: string): Promise<{ qty: Decimal; count: number; next: string }> {
  let qty = dec(0);
  for (let n = 1; n <= MAX_FLATTENS; n++) {
    const id = flattenId(bracketId, n);
    const o = await conn.orderByClientId(inst, id, false);
    if (!o) return { qty, count: n - 1, next: id };
    qty = add(qty, dec(OPEN.has(o.status) ? o.qty : o.filledQty));
  }
  throw new Error(`${inst.symbol}: the entry was closed in ${MAX_FLATTENS} parts and still fills`);
}

/** What `closeFilled` did: closed `qty` with the order `id`, or found the position closed already (`gone`: the exchange's refusal). */
export interface Closing {
  id: string;
  qty: string;
  /** How many closings there were before this one. */
  count: number;
  gone?: string;
}

/**
 * Closes at market (reduce-only) what a refused bracket's entry filled and no earlier closing took, capped by the
 * position the round saw; null when nothing is left. A close the exchange refuses means the position is smaller than
 * the round saw, or gone (closed by hand meanwhile, the account state behind): the exchange's position says which —
 * nothing to close (`gone`), or that much, closed under the next id (a refused order may be kept by its id: BitMEX
 * keeps it, rejected).
 */
export async function closeFilled(d: {
  conn: Pick<TradingConnector, 'orderByClientId' | 'place'>;
  inst: TradingInstrument;
  long: boolean;
  bracketId: string;
  filled: Decimal;
  seen: Position | undefined;
  position: () => Promise<Position | undefined>;
  act: (step: string) => Promise<void>;
}): Promise<Closing | null> {
  const step = dec(d.inst.stepSize);
  let done = await flattened(d.conn, d.inst, d.bracketId);
  const left = sub(d.filled, done.qty);
  const qty = str(roundToStep(d.seen ? min(left, dec(d.seen.size)) : left, step, 'down'));
  if (cmp(dec(qty), dec(0)) <= 0) return null;
  const close = async (size: string, clientOrderId: string) => {
    await d.act(`place-${clientOrderId}`);
    await d.conn.place({ symbol: d.inst.exchangeSymbol, side: d.long ? 'SELL' : 'BUY', type: 'MARKET', qty: size, reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId });
  };
  try {
    await close(qty, done.next);
    return { id: done.next, qty, count: done.count };
  } catch (err) {
    if (!refused(err)) throw err;
    const held = await d.position();
    const size = held ? str(roundToStep(min(left, dec(held.size)), step, 'down')) : '0';
    if (cmp(dec(size), dec(0)) <= 0) return { id: done.next, qty: '0', count: done.count, gone: err.exchangeMessage };
    if (cmp(dec(size), dec(qty)) >= 0) throw err;
    done = await flattened(d.conn, d.inst, d.bracketId);
    await close(size, done.next);
    return { id: done.next, qty: size, count: done.count };
  }
}
