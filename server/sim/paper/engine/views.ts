import type { EngineContext } from './context';
import { absBig, formatFixed } from './decimal';
import type { BalanceView, PositionView } from './events';
import {
  bankruptcyPrice,
  bracketFor,
  breakEvenPrice,
  currencyTotals,
  entryPrice,
  liquidationPrice,
  maintenanceOf,
  positionMargin,
  settingsOf,
  unrealised,
} from './margin';
import type { AccountState, PositionState } from './state';

/** Derived prices (entry, break-even, liquidation) print with this many decimals; venues re-round. */
export const DERIVED_PRICE_DECIMALS = 8;

export function balanceView(ctx: EngineContext, acc: AccountState, currency: string): BalanceView {
  const d = ctx.decimals(currency);
  const t = currencyTotals(ctx, acc, currency);
  const wallet = acc.wallet(currency);
  const f = (v: bigint) => formatFixed(v, d);
  return {
    currency,
    wallet: f(wallet),
    crossWallet: f(t.crossWallet),
    unrealisedPnl: f(t.unrealised),
    crossUnrealisedPnl: f(t.crossUnrealised),
    marginBalance: f(wallet + t.unrealised),
    positionMargin: f(t.positionMargin),
    orderMargin: f(t.orderMargin),
    maintMargin: f(t.maintMargin),
    available: f(t.available),
  };
}

export function positionView(ctx: EngineContext, acc: AccountState, p: PositionState): PositionView {
  const u = ctx.units(p.symbol)!;
  const currency = u.spec.settle;
  const d = ctx.decimals(currency);
  const money = (v: bigint) => formatFixed(v, d);
  const price = (v: bigint | null) => (v === null ? null : formatFixed(v, DERIVED_PRICE_DECIMALS));
  const mark = acc.marks.get(p.symbol);
  const s = settingsOf(ctx, acc, p.symbol);
  const notional = mark === undefined || p.size === 0n ? 0n : u.value(absBig(p.size), mark);
  return {
    symbol: p.symbol,
    currency,
    side: p.size > 0n ? 'LONG' : p.size < 0n ? 'SHORT' : 'FLAT',
    size: u.qtyOf(p.size),
    amount: formatFixed(u.amount(absBig(p.size)), DERIVED_PRICE_DECIMALS),
    entryPrice: price(entryPrice(u, p))!,
    breakEvenPrice: price(breakEvenPrice(ctx, u, p))!,
    markPrice: mark === undefined ? '0' : u.priceOf(mark),
    notional: money(p.size < 0n ? -notional : notional),
    unrealisedPnl: money(unrealised(u, p, mark)),
    realisedPnl: money(p.realised),
    liquidationPrice: price(liquidationPrice(ctx, acc, p)),
    bankruptcyPrice: price(bankruptcyPrice(ctx, acc, p)),
    leverage: s.leverage,
    marginMode: s.marginMode,
    isolatedMargin: money(p.isolatedMargin),
    initialMargin: money(positionMargin(ctx, acc, p)),
    maintMargin: money(maintenanceOf(ctx, u, p, mark)),
    maintenanceRate: formatFixed(bracketFor(ctx, p.symbol, p.cost).rate, 6),
    updatedAt: p.updatedAt,
  };
}

/** Emits an `account` event with the given currencies' balances and symbols' positions, as they are now. */
export function emitAccount(
  ctx: EngineContext,
  acc: AccountState,
  time: number,
  reason: 'order' | 'liquidation' | 'leverage' | 'margin-mode' | 'reset',
  currencies: Iterable<string>,
  symbols: Iterable<string>,
): void {
  ctx.emit(acc, {
    type: 'account',
    account: acc.id,
    time,
    reason,
    balances: [...new Set(currencies)].map((c) => balanceView(ctx, acc, c)),
    positions: [...new Set(symbols)].map((s) => positionView(ctx, acc, acc.position(s, time))),
  });
}
