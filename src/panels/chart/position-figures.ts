import { cmp, dec, isZero, roundToStep, str } from '../../api/contracts/decimal';
import type { Instrument } from '../../api/contracts/exchanges';
import { rMultiple, sizeFromRisk, type InstrumentTerms } from '../../api/contracts/risk';
import type { BracketBody, PlaceOrderBody, Position, Side } from '../../api/contracts/trading';
import { newClientOrderId } from '../../api/trade/trade-key';
import type { PositionPlan } from '../../engine';

/**
 * The chart's position tool in money (issue 25): the engine reports where the stop, entry and
 * targets are (numbers, for drawing); here they become the exchange's prices (snapped to the tick),
 * the size the user's risk % buys (DESIGN §3.4, linear and inverse, from the shared exact
 * `sizeFromRisk` Order entry uses), each target's R, and the bracket "Place" sends.
 */
export type PositionInstrument = Pick<Instrument, 'category' | 'contractValue' | 'stepSize' | 'minQty' | 'maxQty' | 'tickSize'>;

export interface PositionFigures {
  side: Side;
  entry: string;
  stop: string;
  /** Size in the exchange's unit (contracts of an inverse pair), down to the step, within min and max. */
  qty: string;
  /** Lost if the stop fills at `qty` (margin currency), before fees. */
  riskAmount: string;
  clamped: 'min' | 'max' | null;
  targets: Array<{ price: string; r: string; qtyPercent: number }>;
  /** Why it cannot be placed as it stands (null: it can). */
  problem: string | null;
}

/** A chart number as the exchange's price: snapped to the tick (nearest). */
export const priceText = (price: number, tick: string): string => str(roundToStep(dec(price), dec(tick), 'half-even'));

export const termsOf = (i: PositionInstrument): InstrumentTerms => ({
  category: i.category === 'inverse' ? 'inverse' : 'linear',
  contractSize: i.contractValue,
  stepSize: i.stepSize,
  minQty: i.minQty,
  maxQty: i.maxQty,
});

/** Shares of the position per target, in hundredths adding up to exactly 100 % (the last takes the rest). */
export function splitPercent(n: number): number[] {
  if (n <= 0) return [];
  const each = Math.floor(10_000 / n);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? 10_000 - each * (n - 1) : each) / 100);
}

export function positionFigures(input: { plan: PositionPlan; instrument: PositionInstrument; balance: string; riskPercent: number }): PositionFigures | null {
  const { plan, instrument } = input;
  const tick = instrument.tickSize;
  const side: Side = plan.side === 'long' ? 'BUY' : 'SELL';
  const entry = priceText(plan.entry, tick);
  const stop = priceText(plan.stop, tick);
  if (cmp(dec(entry), dec(stop)) === 0) return null;
  const sized = sizeFromRisk({ terms: termsOf(instrument), balance: input.balance, riskPercent: input.riskPercent, entry, stop });
  const shares = splitPercent(plan.targets.length);
  const targets = plan.targets.map((t, i) => {
    const price = priceText(t, tick);
    return { price, r: rMultiple({ side, entry, stop, takeProfit: price }), qtyPercent: shares[i] };
  });
  const problem = problemOf(entry, stop, sized.qty, targets);
  return { side, entry, stop, qty: sized.qty, riskAmount: sized.riskAmount, clamped: sized.clamped, targets, problem };
}

/** Why a sized position cannot be placed (null: it can). */
function problemOf(entry: string, stop: string, qty: string, targets: PositionFigures['targets']): string | null {
  if ([entry, stop, ...targets.map((t) => t.price)].some((p) => cmp(dec(p), dec(0)) <= 0)) return 'Prices must be above zero';
  if (isZero(dec(qty))) return 'Nothing to risk: the balance is empty';
  if (targets.length === 0) return 'Add a target';
  if (targets.some((t) => cmp(dec(t.r), dec(0)) <= 0)) return 'A target is on the stop’s side of the entry';
  return null;
}

/** The bracket "Place" sends: a limit entry at the entry price, the stop, the targets sharing the size. */
export function positionBracket(f: PositionFigures, symbol: string): BracketBody {
  return {
    symbol,
    side: f.side,
    qty: f.qty,
    entry: { type: 'LIMIT', price: f.entry },
    stopLoss: { triggerPrice: f.stop },
    takeProfits: f.targets.map((t) => ({ price: t.price, qtyPercent: t.qtyPercent })),
    clientOrderId: newClientOrderId(),
  };
}

/**
 * What a drag off the position's entry line adds, released at `price` (already the exchange's text):
 * on the profit side a reduce-only take-profit limit, on the loss side a reduce-only stop-market, for
 * the whole position. Null at the entry itself.
 */
export function exitOrderAt(position: Pick<Position, 'symbol' | 'side' | 'size' | 'entryPrice'>, price: string): { kind: 'take-profit' | 'stop-loss'; body: PlaceOrderBody } | null {
  const above = cmp(dec(price), dec(position.entryPrice));
  if (above === 0) return null;
  const profit = position.side === 'BUY' ? above > 0 : above < 0;
  const side: Side = position.side === 'BUY' ? 'SELL' : 'BUY';
  const common = { symbol: position.symbol, side, qty: position.size, reduceOnly: true, clientOrderId: newClientOrderId() };
  return profit
    ? { kind: 'take-profit', body: { ...common, type: 'LIMIT', price, postOnly: false, timeInForce: 'GTC' } }
    : { kind: 'stop-loss', body: { ...common, type: 'STOP_MARKET', triggerPrice: price, postOnly: false, timeInForce: 'GTC' } };
}
