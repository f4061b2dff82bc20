import type { EngineContext } from './context';
import { absBig, divRound, formatFixed, minBig } from './decimal';
import type { OrderExec } from './events';
import { currencyTotals, feeOn, marginFor, reducible, settingsOf, toLedger } from './margin';
import type { FillRecord } from './records';
import { isOpen, orderToRecord, sideSign, type AccountState, type OrderState } from './state';
import type { OrderStatus, Refusal } from './types';
import { emitAccount } from './views';

export function orderEvent(ctx: EngineContext, acc: AccountState, o: OrderState, exec: OrderExec, time: number, fill?: FillRecord): void {
  acc.touchOrder(o, time);
  ctx.emit(acc, { type: 'order', account: acc.id, time, exec, order: orderToRecord(o, ctx.units(o.symbol)!), ...(fill ? { fill } : {}) });
}

/** Ends an open order without (further) fills. */
export function finish(ctx: EngineContext, acc: AccountState, o: OrderState, status: OrderStatus, reason: string, time: number): void {
  if (!isOpen(o)) return;
  o.status = status;
  o.reason = reason;
  const exec: OrderExec = status === 'CANCELED' ? 'canceled' : status === 'REJECTED' ? 'rejected' : 'expired';
  orderEvent(ctx, acc, o, exec, time);
}

/**
 * Books one fill: the closing part realises PnL against the average entry, the opening part grows
 * the position (and, isolated, moves its margin into the isolated wallet). The wallet changes by
 * exactly realised − fee — the invariant the property tests check — and nothing else.
 */
export function applyFill(
  ctx: EngineContext,
  acc: AccountState,
  o: OrderState,
  qty: bigint,
  price: bigint,
  maker: boolean,
  time: number,
  liquidation = false,
): FillRecord {
  const u = ctx.units(o.symbol)!;
  const currency = u.spec.settle;
  const p = acc.position(o.symbol, time);
  const dir = sideSign(o.side);
  const value = u.value(qty, price);
  const fee = liquidation ? 0n : feeOn(ctx, currency, value, maker ? ctx.makerRate : ctx.takerRate);
  const size = absBig(p.size);
  const closing = p.size !== 0n && (p.size > 0n) !== (dir > 0n) ? minBig(qty, size) : 0n;
  const opening = qty - closing;
  let realised = 0n;
  if (closing > 0n) {
    const removed = closing === size ? p.cost : divRound(p.cost * closing, size, 'half-up');
    const exit = u.value(closing, price);
    const gain = u.category === 'linear' ? exit - removed : removed - exit;
    realised = toLedger(ctx, currency, p.size > 0n ? gain : -gain);
    const releasedMargin = closing === size ? p.isolatedMargin : divRound(p.isolatedMargin * closing, size, 'half-up');
    const releasedFees = closing === size ? p.openFees : divRound(p.openFees * closing, size, 'half-up');
    p.cost -= removed;
    p.isolatedMargin -= releasedMargin;
    p.openFees -= releasedFees;
    p.size += dir * closing;
  }
  if (opening > 0n) {
    const openValue = u.value(opening, price);
    p.size += dir * opening;
    p.cost += openValue;
    p.openFees += opening === qty ? fee : divRound(fee * opening, qty, 'half-up');
    const s = settingsOf(ctx, acc, o.symbol);
    if (s.marginMode === 'isolated') p.isolatedMargin += toLedgerCeil(ctx, currency, divRound(openValue, BigInt(s.leverage), 'ceil'));
  }
  if (p.size === 0n) {
    p.cost = 0n;
    p.isolatedMargin = 0n;
    p.openFees = 0n;
  }
  p.realised += realised;
  p.updatedAt = time;
  acc.dirtyPositions.add(o.symbol);
  acc.addWallet(currency, realised - fee);

  o.filled += qty;
  o.sumPriceQty += qty * price;
  o.fee += fee;
  o.realised += realised;
  o.status = o.filled >= o.qty ? 'FILLED' : 'PARTIALLY_FILLED';
  const fill: FillRecord = {
    id: acc.takeId(),
    orderId: o.id,
    symbol: o.symbol,
    side: o.side,
    qty: u.qtyOf(qty),
    price: u.priceOf(price),
    fee: ledgerString(ctx, currency, fee),
    feeCurrency: currency,
    realisedPnl: ledgerString(ctx, currency, realised),
    maker,
    liquidation,
    time,
  };
  acc.fills.push(fill);
  orderEvent(ctx, acc, o, 'fill', time, fill);
  emitAccount(ctx, acc, time, liquidation ? 'liquidation' : 'order', [currency], [o.symbol]);
  return fill;
}

function toLedgerCeil(ctx: EngineContext, currency: string, v: bigint): bigint {
  const unit = 10n ** BigInt(18 - ctx.decimals(currency));
  return divRound(v, unit, 'ceil') * unit;
}

/** A ledger amount (already a multiple of the ledger unit) with the currency's decimals. */
function ledgerString(ctx: EngineContext, currency: string, v: bigint): string {
  return formatFixed(v, ctx.decimals(currency));
}

export interface TakePlan {
  price: bigint;
  qty: bigint;
}

export interface TakeInput {
  symbol: string;
  side: OrderState['side'];
  /** Limit price in ticks, or null for market. */
  limit: bigint | null;
  remaining: bigint;
  reduceOnly: boolean;
  exclude?: OrderState;
}

/**
 * Would this order take liquidity at the simulated quote (last ± half-spread), and how much can it
 * fill? 'rest' = not marketable; a refusal = it may not (nothing to reduce, not enough margin).
 * The book has unlimited depth at the quote: a marketable order fills completely.
 */
export function planTake(ctx: EngineContext, acc: AccountState, t: TakeInput, last: bigint): TakePlan | 'rest' | Refusal {
  const price = t.side === 'BUY' ? last + ctx.halfSpread : last - ctx.halfSpread > 0n ? last - ctx.halfSpread : 1n;
  if (t.limit !== null && (t.side === 'BUY' ? price > t.limit : price < t.limit)) return 'rest';
  let qty = t.remaining;
  if (t.reduceOnly) {
    qty = minBig(qty, reducible(acc, t.symbol, t.side));
    if (qty === 0n) return { code: 'reduce-only-rejected', message: 'Reduce-only order would not reduce the position.' };
  }
  const u = ctx.units(t.symbol)!;
  const need = marginFor(ctx, acc, t.symbol, t.side, qty, price) + feeOn(ctx, u.spec.settle, u.value(qty, price), ctx.takerRate);
  if (need > 0n && need > currencyTotals(ctx, acc, u.spec.settle, t.exclude).available) {
    return { code: 'insufficient-margin', message: 'Margin is insufficient.' };
  }
  return { price, qty };
}

/** Expires open reduce-only orders (not waiting conditionals) that have nothing left to reduce. */
export function expireStaleReduceOnly(ctx: EngineContext, acc: AccountState, symbol: string, time: number): void {
  for (const o of acc.openOrders(symbol)) {
    if (o.reduceOnly && o.status !== 'UNTRIGGERED' && reducible(acc, symbol, o.side) === 0n) finish(ctx, acc, o, 'EXPIRED', 'reduce-only', time);
  }
}
