import type { EngineContext, ParsedBracket } from './context';
import { absBig, divFixed, divRound, maxBig, minBig, mulFixed, ONE } from './decimal';
import { isOpen, isWaiting, type AccountState, type OrderState, type PositionState, type SymbolSettings } from './state';
import type { Side } from './types';
import type { Units } from './units';

/**
 * Margin and PnL arithmetic (paper-economics.md). Value V = qty × contract × price (linear, quote)
 * or qty × contract ÷ price (inverse, coin). With Q the base amount (linear) or USD amount
 * (inverse), C the entry value ("cost"), M the collateral and MMR / D the maintenance rate and
 * deduction, the maintenance condition M + uPnL(P) = V(P) × MMR − D solves to:
 *   linear long  P = (C − M − D) / (Q (1 − MMR))      linear short  P = (C + M + D) / (Q (1 + MMR))
 *   inverse long P = Q (1 + MMR) / (M + C + D)        inverse short P = Q (1 − MMR) / (C − M − D)
 * (Binance's one-way formula with cum = D; OKX's inverse form). MMR = D = 0 gives the bankruptcy price.
 */

export function settingsOf(ctx: EngineContext, acc: AccountState, symbol: string): SymbolSettings {
  return acc.settings.get(symbol) ?? { leverage: ctx.defaultLeverage(symbol), marginMode: 'cross' };
}

export function bracketFor(ctx: EngineContext, symbol: string, value: bigint): ParsedBracket {
  const list = ctx.brackets(symbol);
  return list.find((b) => b.cap === null || value <= b.cap) ?? list[list.length - 1];
}

export function unrealised(u: Units, p: PositionState, mark: bigint | undefined): bigint {
  if (p.size === 0n || mark === undefined) return 0n;
  const now = u.value(absBig(p.size), mark);
  const gain = u.category === 'linear' ? now - p.cost : p.cost - now;
  return p.size > 0n ? gain : -gain;
}

/** Average entry price (fixed): C / Q for linear, Q / C for inverse (the harmonic mean of fills). */
export function entryPrice(u: Units, p: PositionState): bigint {
  if (p.size === 0n || p.cost === 0n) return 0n;
  const q = u.amount(absBig(p.size));
  return u.category === 'linear' ? divFixed(p.cost, q) : divFixed(q, p.cost);
}

/** Price (fixed) at which M + uPnL = V × rate − D, or null when it lies at or below zero / at infinity. */
export function thresholdPrice(u: Units, p: PositionState, collateral: bigint, rate: bigint, deduction: bigint): bigint | null {
  if (p.size === 0n) return null;
  const q = u.amount(absBig(p.size));
  const long = p.size > 0n;
  let price: bigint;
  if (u.category === 'linear') {
    const num = long ? p.cost - collateral - deduction : p.cost + collateral + deduction;
    const den = mulFixed(q, long ? ONE - rate : ONE + rate);
    if (num <= 0n || den <= 0n) return null;
    price = divFixed(num, den);
  } else {
    const num = mulFixed(q, long ? ONE + rate : ONE - rate);
    const den = long ? collateral + p.cost + deduction : p.cost - collateral - deduction;
    if (num <= 0n || den <= 0n) return null;
    price = divFixed(num, den);
  }
  return price > 0n ? price : null;
}

/** What backs a position: its isolated wallet, or the cross wallet plus the other cross positions' uPnL (− their MM). */
export function collateralOf(ctx: EngineContext, acc: AccountState, p: PositionState, includeOthersMaint: boolean): bigint {
  const u = ctx.units(p.symbol)!;
  if (settingsOf(ctx, acc, p.symbol).marginMode === 'isolated') return p.isolatedMargin;
  const currency = u.spec.settle;
  let m = crossWallet(ctx, acc, currency);
  for (const other of acc.positions.values()) {
    if (other === p || other.size === 0n) continue;
    const ou = ctx.units(other.symbol);
    if (!ou || ou.spec.settle !== currency || settingsOf(ctx, acc, other.symbol).marginMode !== 'cross') continue;
    const mark = acc.marks.get(other.symbol);
    m += unrealised(ou, other, mark);
    if (includeOthersMaint) m -= maintenanceOf(ctx, ou, other, mark);
  }
  return m;
}

export function maintenanceOf(ctx: EngineContext, u: Units, p: PositionState, mark: bigint | undefined): bigint {
  if (p.size === 0n) return 0n;
  const value = mark === undefined ? p.cost : u.value(absBig(p.size), mark);
  const b = bracketFor(ctx, p.symbol, p.cost);
  return maxBig(0n, mulFixed(value, b.rate, 'ceil') - b.deduction);
}

export function liquidationPrice(ctx: EngineContext, acc: AccountState, p: PositionState): bigint | null {
  const u = ctx.units(p.symbol)!;
  const b = bracketFor(ctx, p.symbol, p.cost);
  return thresholdPrice(u, p, collateralOf(ctx, acc, p, true), b.rate, b.deduction);
}

export function bankruptcyPrice(ctx: EngineContext, acc: AccountState, p: PositionState): bigint | null {
  return thresholdPrice(ctx.units(p.symbol)!, p, collateralOf(ctx, acc, p, false), 0n, 0n);
}

/**
 * The price at which closing everything as a taker pays back the fees of opening it plus the
 * closing fee: linear long (C + F) / (Q (1 − t)), short (C − F) / (Q (1 + t)); inverse long
 * Q (1 + t) / (C − F), short Q (1 − t) / (C + F).
 */
export function breakEvenPrice(ctx: EngineContext, u: Units, p: PositionState): bigint {
  if (p.size === 0n || p.cost === 0n) return 0n;
  const q = u.amount(absBig(p.size));
  const t = ctx.takerRate;
  const long = p.size > 0n;
  if (u.category === 'linear') return divFixed(long ? p.cost + p.openFees : p.cost - p.openFees, mulFixed(q, long ? ONE - t : ONE + t));
  const den = long ? p.cost - p.openFees : p.cost + p.openFees;
  return den > 0n ? divFixed(mulFixed(q, long ? ONE + t : ONE - t), den) : 0n;
}

export function crossWallet(ctx: EngineContext, acc: AccountState, currency: string): bigint {
  let w = acc.wallet(currency);
  for (const p of acc.positions.values()) {
    if (p.isolatedMargin !== 0n && ctx.units(p.symbol)?.spec.settle === currency) w -= p.isolatedMargin;
  }
  return w;
}

/** Initial margin a position holds: its isolated wallet, or entry value ÷ leverage in cross. */
export function positionMargin(ctx: EngineContext, acc: AccountState, p: PositionState): bigint {
  if (p.size === 0n) return 0n;
  const s = settingsOf(ctx, acc, p.symbol);
  return s.marginMode === 'isolated' ? p.isolatedMargin : divRound(p.cost, BigInt(s.leverage), 'ceil');
}

/** How much of `qty` on `side` closes the current position (the rest would open or grow it). */
export function reducible(acc: AccountState, symbol: string, side: Side): bigint {
  const size = acc.positions.get(symbol)?.size ?? 0n;
  if (side === 'BUY') return size < 0n ? -size : 0n;
  return size > 0n ? size : 0n;
}

/** Margin an order would need for `qty` at `price` ticks: the growing part's value ÷ leverage. */
export function marginFor(ctx: EngineContext, acc: AccountState, symbol: string, side: Side, qty: bigint, price: bigint): bigint {
  const u = ctx.units(symbol)!;
  const grow = qty - minBig(qty, reducible(acc, symbol, side));
  if (grow <= 0n) return 0n;
  return divRound(u.value(grow, price), BigInt(settingsOf(ctx, acc, symbol).leverage), 'ceil');
}

/** Resting orders reserve margin; waiting conditionals do not (Binance: "no margin check before trigger"). */
export function orderMargin(ctx: EngineContext, acc: AccountState, o: OrderState): bigint {
  if (!isOpen(o) || isWaiting(o) || o.reduceOnly || o.price === null) return 0n;
  return marginFor(ctx, acc, o.symbol, o.side, o.qty - o.filled, o.price);
}

export interface CurrencyTotals {
  crossWallet: bigint;
  unrealised: bigint;
  crossUnrealised: bigint;
  positionMargin: bigint;
  crossPositionMargin: bigint;
  orderMargin: bigint;
  maintMargin: bigint;
  available: bigint;
}

export function currencyTotals(ctx: EngineContext, acc: AccountState, currency: string, exclude?: OrderState): CurrencyTotals {
  const t: CurrencyTotals = { crossWallet: crossWallet(ctx, acc, currency), unrealised: 0n, crossUnrealised: 0n, positionMargin: 0n, crossPositionMargin: 0n, orderMargin: 0n, maintMargin: 0n, available: 0n };
  for (const p of acc.positions.values()) {
    const u = ctx.units(p.symbol);
    if (!u || u.spec.settle !== currency || p.size === 0n) continue;
    const mark = acc.marks.get(p.symbol);
    const upnl = unrealised(u, p, mark);
    const im = positionMargin(ctx, acc, p);
    t.unrealised += upnl;
    t.positionMargin += im;
    t.maintMargin += maintenanceOf(ctx, u, p, mark);
    if (settingsOf(ctx, acc, p.symbol).marginMode === 'cross') {
      t.crossUnrealised += upnl;
      t.crossPositionMargin += im;
    }
  }
  for (const o of acc.orders.values()) {
    if (o === exclude || ctx.units(o.symbol)?.spec.settle !== currency) continue;
    t.orderMargin += orderMargin(ctx, acc, o);
  }
  t.available = t.crossWallet + t.crossUnrealised - t.crossPositionMargin - t.orderMargin;
  return t;
}

/** The currency's fee on `value` at `rate`, rounded once (half away from zero) to the ledger precision. */
export function feeOn(ctx: EngineContext, currency: string, value: bigint, rate: bigint): bigint {
  const unit = 10n ** BigInt(18 - ctx.decimals(currency));
  return divRound(value * rate, ONE * unit, 'half-up') * unit;
}

/** A PnL amount rounded to the ledger precision. */
export function toLedger(ctx: EngineContext, currency: string, v: bigint): bigint {
  const unit = 10n ** BigInt(18 - ctx.decimals(currency));
  return divRound(v, unit, 'half-up') * unit;
}
