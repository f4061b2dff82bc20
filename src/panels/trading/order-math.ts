import { add, cmp, dec, div, isZero, mul, roundToStep, str, sub } from '../../api/contracts/decimal';
import { estimatedLiquidationPrice, marginRequired, rMultiple, sizeFromRisk } from '../../api/contracts/risk';
import type { Side } from '../../api/contracts/trading';
import { isNumberText, type EntryTerms } from '../shared/trading/size-checks';

/**
 * The numbers order entry shows before anything is sent (DESIGN §3.4), from the shared exact risk
 * math: size from risk, money at risk, R of each target, margin and estimated liquidation.
 */
// The size checks live in `../shared/trading/size-checks.ts` (the DOM ladder checks its size the same way).
export { isNumberText, notionalProblem, qtyProblem, snapQty, typingProblem, type EntryTerms } from '../shared/trading/size-checks';

/** A price typed by the trader, snapped to the tick (nearest). */
export function snapPrice(value: string, tick: string): string {
  if (!isNumberText(value)) return value;
  return str(roundToStep(dec(value.trim()), dec(tick), 'half-even'));
}

/** The stop price `percent` % away from `entry`, on the losing side, snapped to the tick. */
export function stopFromPercent(entry: string, percent: number, side: Side, tick: string): string {
  const e = dec(entry);
  const d = div(mul(e, dec(percent)), dec(100), 18);
  return str(roundToStep(side === 'BUY' ? sub(e, d) : sub(e, mul(d, dec(-1))), dec(tick), side === 'BUY' ? 'down' : 'up'));
}

/** A take-profit at `r` times the risk distance from the entry. */
export function targetAtR(entry: string, stop: string, r: number, side: Side, tick: string): string {
  // entry + (entry − stop) × r: above the entry for a long (stop below), below it for a short.
  void side;
  const e = dec(entry);
  return str(roundToStep(add(e, mul(sub(e, dec(stop)), dec(r))), dec(tick), 'half-even'));
}

export interface Preview {
  qty: string;
  clamped: 'min' | 'max' | null;
  riskAmount: string;
  rMultiples: string[];
  margin: string;
  liquidation: string | null;
}

export function preview(input: {
  terms: EntryTerms;
  side: Side;
  entry: string;
  stop: string;
  balance: string;
  riskPercent: number;
  /** A size typed by hand; null = size from risk. */
  qty: string | null;
  takeProfits: string[];
  leverage: number;
}): Preview | null {
  const { terms, side, entry, stop } = input;
  if (!isNumberText(entry) || !isNumberText(stop) || cmp(dec(entry), dec(stop)) === 0) return null;
  if ((side === 'BUY' && cmp(dec(stop), dec(entry)) >= 0) || (side === 'SELL' && cmp(dec(stop), dec(entry)) <= 0)) return null;
  const sized = sizeFromRisk({ terms, balance: input.balance, riskPercent: input.riskPercent, entry, stop });
  const qty = input.qty ?? sized.qty;
  const riskAmount = input.qty === null ? sized.riskAmount : str(div(mul(dec(sized.riskAmount), dec(input.qty)), isZero(dec(sized.qty)) ? dec(1) : dec(sized.qty), 12, 'up'));
  return {
    qty,
    clamped: input.qty === null ? sized.clamped : null,
    riskAmount,
    rMultiples: input.takeProfits.map((tp) => (isNumberText(tp) ? rMultiple({ side, entry, stop, takeProfit: tp }) : '—')),
    margin: marginRequired({ terms, qty, price: entry, leverage: input.leverage }),
    liquidation: estimatedLiquidationPrice({ category: terms.category, side, entry, leverage: input.leverage, maintenanceRate: '0.005' }),
  };
}
