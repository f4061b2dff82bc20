import type { EngineContext } from './context';
import { divRound } from './decimal';
import { currencyTotals, settingsOf } from './margin';
import type { AccountState, SymbolSettings } from './state';
import type { MarginMode, Refusal, Result } from './types';
import { emitAccount } from './views';

const no = (code: Refusal['code'], message: string, field?: string): { ok: false; refusal: Refusal } => ({ ok: false, refusal: { code, message, ...(field ? { field } : {}) } });

/**
 * Leverage within the instrument's limit and the bracket the position sits in. Raising it frees
 * margin; lowering it must be paid for from the available balance (an isolated wallet is topped up).
 */
export function setLeverage(ctx: EngineContext, acc: AccountState, symbol: string, leverage: number, at: number): Result<SymbolSettings> {
  const u = ctx.units(symbol);
  if (!u) return no('unknown-symbol', `Unknown symbol ${symbol}.`, 'symbol');
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > u.spec.maxLeverage) {
    return no('leverage-out-of-range', `Leverage ${leverage} is not valid (1–${u.spec.maxLeverage}).`, 'leverage');
  }
  const prev = settingsOf(ctx, acc, symbol);
  const p = acc.positions.get(symbol);
  const cost = p?.cost ?? 0n;
  const allowed = ctx.brackets(symbol).filter((b) => b.maxLeverage >= leverage);
  const cap = allowed.length ? allowed[allowed.length - 1].cap : 0n;
  if (cost > 0n && (allowed.length === 0 || (cap !== null && cost > cap))) {
    return no('position-limit-exceeded', 'The position is too large for this leverage.', 'leverage');
  }
  const currency = u.spec.settle;
  const before = currencyTotals(ctx, acc, currency).available;
  const next: SymbolSettings = { ...prev, leverage };
  let topUp = 0n;
  if (p && p.size !== 0n && prev.marginMode === 'isolated') {
    const needed = divRound(p.cost, BigInt(leverage), 'ceil');
    if (needed > p.isolatedMargin) topUp = needed - p.isolatedMargin;
    if (topUp > before) return no('insufficient-margin', 'Margin is insufficient for this leverage.', 'leverage');
  }
  acc.settings.set(symbol, next);
  if (topUp === 0n && prev.marginMode === 'cross' && leverage < prev.leverage) {
    const after = currencyTotals(ctx, acc, currency).available;
    if (after < 0n) {
      acc.settings.set(symbol, prev);
      return no('insufficient-margin', 'Margin is insufficient for this leverage.', 'leverage');
    }
  }
  if (topUp > 0n && p) {
    p.isolatedMargin += topUp;
    p.updatedAt = at;
    acc.dirtyPositions.add(symbol);
  }
  acc.dirtySettings.add(symbol);
  emitAccount(ctx, acc, at, 'leverage', [currency], p ? [symbol] : []);
  return { ok: true, value: next };
}

/** Per symbol, and only while flat with no open orders (Binance -4047 / -4048; Bybit's account-wide switch loops over symbols). */
export function setMarginMode(ctx: EngineContext, acc: AccountState, symbol: string, mode: MarginMode, at: number): Result<SymbolSettings> {
  const u = ctx.units(symbol);
  if (!u) return no('unknown-symbol', `Unknown symbol ${symbol}.`, 'symbol');
  const prev = settingsOf(ctx, acc, symbol);
  if (prev.marginMode === mode) return no('margin-mode-unchanged', 'No need to change margin type.', 'marginMode');
  if (acc.openOrders(symbol).length > 0) return no('open-orders-exist', 'Margin type cannot be changed if there exists open orders.', 'marginMode');
  if ((acc.positions.get(symbol)?.size ?? 0n) !== 0n) return no('position-exists', 'Margin type cannot be changed if there exists position.', 'marginMode');
  const next: SymbolSettings = { ...prev, marginMode: mode };
  acc.settings.set(symbol, next);
  acc.dirtySettings.add(symbol);
  emitAccount(ctx, acc, at, 'margin-mode', [u.spec.settle], []);
  return { ok: true, value: next };
}
