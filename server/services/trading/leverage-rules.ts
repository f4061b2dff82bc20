import { decimalPlaces, type ExchangeId } from '../../../src/api/contracts/common';

/**
 * What leverage each exchange takes in its set-leverage call, checked before anything is sent (a value
 * the exchange would round or refuse is a 400 naming `leverage`, not a silent 2× for 1.5× nor a 422).
 * The ceiling of a symbol (its risk tier) stays the exchange's to refuse; these are the rules of the call.
 *
 * - Binance: whole numbers 1–125 (binance.md §6 "Leverage": `leverage` int 1–125).
 * - Bybit: from 1 in steps of 0.01 (bybit.md §3: `leverageFilter.minLeverage` "1", `leverageStep` "0.01";
 *   §6 "Leverage": `buyLeverage` = `sellLeverage` as strings), up to the symbol's max.
 * - OKX: `lever` as a decimal string (okx.md §6 "Leverage"), at most 2 decimals, from 0.01, up to the
 *   instrument's `lever` (okx.md §3).
 * - BitMEX: 0.01–100 (bitmex.md §6 "Leverage"), 2 decimals. Its `leverage: 0` means cross margin, which
 *   this API sets as the margin mode (`PUT /margin-mode` → `/position/isolate`), never as a leverage.
 */
export interface LeverageRule {
  min: number;
  /** null: the symbol's own maximum, which only the exchange knows. */
  max: number | null;
  decimals: number;
  /** The rule in words, for the 400. */
  text: string;
}

export const LEVERAGE_RULES: Record<ExchangeId, LeverageRule> = {
  binance: { min: 1, max: 125, decimals: 0, text: 'Binance takes whole-number leverage: 1 to 125' },
  bybit: { min: 1, max: null, decimals: 2, text: 'Bybit takes leverage from 1 with at most 2 decimals (steps of 0.01)' },
  okx: { min: 0.01, max: null, decimals: 2, text: 'OKX takes leverage from 0.01 with at most 2 decimals' },
  bitmex: { min: 0.01, max: 100, decimals: 2, text: 'BitMEX takes leverage from 0.01 to 100 with at most 2 decimals (cross margin is the margin mode, not leverage 0)' },
};

/** Why `leverage` is not one the exchange takes (the rule in words), or null when it is. */
export function leverageProblem(exchange: ExchangeId, leverage: number): string | null {
  const rule = LEVERAGE_RULES[exchange];
  const inRange = leverage >= rule.min && (rule.max === null || leverage <= rule.max);
  return inRange && Number.isFinite(leverage) && decimalPlaces(leverage) <= rule.decimals ? null : rule.text;
}
