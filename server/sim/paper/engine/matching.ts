import type { EngineContext } from './context';
import { absBig, minBig } from './decimal';
import { applyFill, expireStaleReduceOnly, finish, orderEvent, planTake } from './fills';
import { bankruptcyPrice, liquidationPrice, marginFor, currencyTotals, reducible } from './margin';
import { isOpen, isWaiting, type AccountState, type OrderState } from './state';
import type { Side, TapeTrade } from './types';
import { emitAccount } from './views';

/**
 * What one print of the tape does to one account, in this order: the mark moves (mark = last trade
 * price); a position whose liquidation price the mark crossed is taken over at its bankruptcy
 * price; resting limits the print traded THROUGH fill as makers (a print at the limit price does
 * not: the queue ahead is unknown), sharing the print's size by price then time priority; then
 * conditional orders whose trigger the print reached fire.
 */
export function onTrade(ctx: EngineContext, acc: AccountState, symbol: string, tr: TapeTrade): void {
  acc.marks.set(symbol, tr.price);
  checkLiquidation(ctx, acc, symbol, tr.time);
  for (const side of ['BUY', 'SELL'] as const) matchResting(ctx, acc, symbol, side, tr);
  for (const o of acc.openOrders(symbol)) {
    if (!isWaiting(o) || o.trigger === null) continue;
    if (o.triggerDirection === 'rise' ? tr.price >= o.trigger : tr.price <= o.trigger) fire(ctx, acc, o, tr.price, tr.time);
  }
}

const crosses = (o: OrderState, price: bigint) => o.price !== null && (o.side === 'BUY' ? price < o.price : price > o.price);

function matchResting(ctx: EngineContext, acc: AccountState, symbol: string, side: Side, tr: TapeTrade): void {
  const book = acc
    .openOrders(symbol)
    .filter((o) => o.side === side && !isWaiting(o) && crosses(o, tr.price))
    .sort((a, b) => (a.price === b.price ? a.id - b.id : side === 'BUY' ? (a.price! > b.price! ? -1 : 1) : a.price! < b.price! ? -1 : 1));
  let liquidity = tr.qty;
  for (const o of book) {
    if (liquidity <= 0n) break;
    if (!isOpen(o)) continue;
    let qty = minBig(o.qty - o.filled, liquidity);
    if (o.reduceOnly) {
      qty = minBig(qty, reducible(acc, symbol, side));
      if (qty === 0n) {
        finish(ctx, acc, o, 'EXPIRED', 'reduce-only', tr.time);
        continue;
      }
    }
    applyFill(ctx, acc, o, qty, o.price!, true, tr.time);
    liquidity -= qty;
    expireStaleReduceOnly(ctx, acc, symbol, tr.time);
  }
}

/**
 * A conditional order's trigger was reached: it becomes a live order (with a released id for the
 * venues that show it as a new order) and then behaves like a fresh MARKET or LIMIT order placed
 * at this print — including the margin check that was skipped while it waited.
 */
export function fire(ctx: EngineContext, acc: AccountState, o: OrderState, last: bigint, time: number): void {
  o.status = 'NEW';
  o.triggeredAt = time;
  o.releasedId = acc.takeId();
  if (o.closePosition) o.qty = reducible(acc, o.symbol, o.side);
  orderEvent(ctx, acc, o, 'triggered', time);
  if ((o.closePosition || o.reduceOnly) && reducible(acc, o.symbol, o.side) === 0n) {
    finish(ctx, acc, o, 'EXPIRED', 'reduce-only', time);
    return;
  }
  const plan = planTake(ctx, acc, { symbol: o.symbol, side: o.side, limit: o.price, remaining: o.qty - o.filled, reduceOnly: o.reduceOnly || o.closePosition, exclude: o }, last);
  if (plan === 'rest') {
    if (o.timeInForce !== 'GTC') return finish(ctx, acc, o, 'EXPIRED', o.timeInForce.toLowerCase(), time);
    const u = ctx.units(o.symbol)!;
    const need = o.reduceOnly ? 0n : marginFor(ctx, acc, o.symbol, o.side, o.qty - o.filled, o.price!);
    if (need > 0n && need > currencyTotals(ctx, acc, u.spec.settle, o).available) finish(ctx, acc, o, 'REJECTED', 'insufficient-margin', time);
    return;
  }
  if ('code' in plan) return finish(ctx, acc, o, plan.code === 'insufficient-margin' ? 'REJECTED' : 'EXPIRED', plan.code, time);
  if (o.timeInForce === 'FOK' && plan.qty < o.qty - o.filled) return finish(ctx, acc, o, 'EXPIRED', 'fok', time);
  applyFill(ctx, acc, o, plan.qty, plan.price, false, time);
  if (isOpen(o)) finish(ctx, acc, o, 'EXPIRED', 'reduce-only', time);
  expireStaleReduceOnly(ctx, acc, o.symbol, time);
}

function checkLiquidation(ctx: EngineContext, acc: AccountState, symbol: string, time: number): void {
  const p = acc.positions.get(symbol);
  if (!p || p.size === 0n) return;
  const u = ctx.units(symbol)!;
  const lp = liquidationPrice(ctx, acc, p);
  const mark = u.priceFixed(acc.marks.get(symbol)!);
  if (lp === null || (p.size > 0n ? mark > lp : mark < lp)) return;
  liquidate(ctx, acc, symbol, time);
}

/**
 * The liquidation engine takes the position over: open orders on the symbol are cancelled first
 * (BitMEX and Binance do so), then the whole position closes at the bankruptcy price — rounded to
 * the tick in the trader's favour, so the loss never exceeds the margin — with no fee. The fill is
 * flagged `liquidation`: it is not a print of the tape (the price may lie beyond it).
 */
export function liquidate(ctx: EngineContext, acc: AccountState, symbol: string, time: number): void {
  for (const o of acc.openOrders(symbol)) finish(ctx, acc, o, 'CANCELED', 'liquidation', time);
  const p = acc.positions.get(symbol)!;
  const u = ctx.units(symbol)!;
  const long = p.size > 0n;
  const bp = bankruptcyPrice(ctx, acc, p);
  let ticks = bp === null ? acc.marks.get(symbol)! : u.ticksOf(bp, long ? 'ceil' : 'floor');
  if (ticks < 1n) ticks = 1n;
  const id = acc.takeId();
  const o: OrderState = {
    id,
    clientId: `liquidation-${id}`,
    symbol,
    side: long ? 'SELL' : 'BUY',
    type: 'LIQUIDATION',
    timeInForce: 'IOC',
    postOnly: false,
    reduceOnly: true,
    closePosition: false,
    qty: absBig(p.size),
    filled: 0n,
    price: ticks,
    trigger: null,
    triggerDirection: null,
    status: 'NEW',
    triggeredAt: null,
    releasedId: null,
    sumPriceQty: 0n,
    fee: 0n,
    realised: 0n,
    reason: 'liquidation',
    meta: {},
    createdAt: time,
    updatedAt: time,
  };
  acc.orders.set(id, o);
  orderEvent(ctx, acc, o, 'new', time);
  applyFill(ctx, acc, o, o.qty, ticks, false, time, true);
  emitAccount(ctx, acc, time, 'liquidation', [u.spec.settle], [symbol]);
}
