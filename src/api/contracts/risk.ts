import { abs, cmp, dec, div, isZero, mul, roundToStep, str, sub, type Decimal } from './decimal';
import type { Side } from './trading';

/**
 * Risk sizing and the numbers shown before an order is sent (DESIGN §3.4), exact, shared by the order
 * entry (what the trader sees) and the server (the funded-user "max risk % per trade" limit), so both
 * compute the same digits. Sizes are in the exchange's order unit: base coin (Binance, Bybit linear),
 * contracts of `contractSize` base (OKX linear, BitMEX XBTUSDT), or USD contracts (inverse).
 */
export interface InstrumentTerms {
  /**
   * The contract kinds: `linear` — value and PnL linear in the price, in the settle currency (USDT
   * contracts, and BitMEX quanto ETHUSD, whose settle currency is XBT); `inverse` — USD contracts
   * settled in the coin, value = size ÷ price.
   */
  category: 'linear' | 'inverse';
  /**
   * Linear: base coin per order unit (1 on Binance/Bybit, ctVal on OKX); quanto: the settle coin per
   * contract per 1 quote move (ETHUSD: 0.000001 XBT, BitMEX's multiplier 100 satoshi) — one formula,
   * qty × contractSize × price, in the settle currency. Inverse: USD per contract.
   */
  contractSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
}

/**
 * Money lost if the stop fills, per order unit, in the settle currency (quote for linear, coin for
 * inverse), as a fraction so that sizes divide once and round numbers stay exact. Inverse: a USD
 * contract is worth size/price coin, so the loss is size × |1/stop − 1/entry| = size × |entry − stop| ÷ (entry × stop).
 */
function riskPerUnit(terms: Pick<InstrumentTerms, 'category' | 'contractSize'>, entry: Decimal, stop: Decimal): { num: Decimal; den: Decimal } {
  const num = mul(abs(sub(entry, stop)), dec(terms.contractSize));
  return { num, den: terms.category === 'linear' ? dec(1) : mul(entry, stop) };
}

export interface RiskSize {
  /** Order size in the exchange's unit, rounded down to the step, within min and max. */
  qty: string;
  /** What is lost if the stop fills at `qty` (settle currency), before fees. */
  riskAmount: string;
  /** The size the risk asked for, before the step, min and max. */
  idealQty: string;
  /** `min`: the risk buys less than the smallest order (the minimum is shown, at more risk); `max`: capped. */
  clamped: 'min' | 'max' | null;
}

/**
 * quantity = balance × risk% ÷ |entry − stop| (linear), contracts = balance(coin) × risk% ÷
 * |1/stop − 1/entry| ÷ contractValue (inverse); rounded down to `stepSize`, clamped to min/max.
 */
export function sizeFromRisk(input: { terms: InstrumentTerms; balance: string; riskPercent: number | string; entry: string; stop: string }): RiskSize {
  const entry = dec(input.entry);
  const stop = dec(input.stop);
  if (cmp(entry, stop) === 0) throw new RangeError('The stop must differ from the entry');
  const budget = div(mul(dec(input.balance), dec(input.riskPercent)), dec(100), 30);
  const perUnit = riskPerUnit(input.terms, entry, stop);
  const ideal = div(mul(budget, perUnit.den), perUnit.num, 18, 'down');
  const step = dec(input.terms.stepSize);
  const lo = dec(input.terms.minQty);
  const hi = dec(input.terms.maxQty);
  let qty = roundToStep(ideal, step, 'down');
  let clamped: RiskSize['clamped'] = null;
  if (cmp(qty, lo) < 0) {
    qty = lo;
    clamped = 'min';
  } else if (!isZero(hi) && cmp(qty, hi) > 0) {
    qty = roundToStep(hi, step, 'down');
    clamped = 'max';
  }
  return { qty: str(qty), riskAmount: str(div(mul(qty, perUnit.num), perUnit.den, 12, 'up')), idealQty: str(ideal), clamped };
}

/** The loss if an order of `qty` stops out at `stop` (settle currency): the funded-user risk check. */
export function riskOf(input: { terms: Pick<InstrumentTerms, 'category' | 'contractSize'>; qty: string; entry: string; stop: string }): string {
  const perUnit = riskPerUnit(input.terms, dec(input.entry), dec(input.stop));
  return str(div(mul(dec(input.qty), perUnit.num), perUnit.den, 12, 'up'));
}

/**
 * PnL of `qty` (the exchange's order unit) of a position entered at `entry` and closed at `exit`, in
 * the settle currency, exact (issue 22): linear qty × contractSize × (exit − entry); inverse (USD
 * contracts, coin-settled) qty × contractSize × (1/entry − 1/exit) = qty × contractSize × (exit −
 * entry) ÷ (entry × exit). Signed for the position's side. The same digits in the chart's lines,
 * Positions and the server.
 */
export function pnlAt(input: { terms: Pick<InstrumentTerms, 'category' | 'contractSize'>; side: Side; qty: string; entry: string; exit: string; scale?: number }): string {
  const entry = dec(input.entry);
  const exit = dec(input.exit);
  const move = input.side === 'BUY' ? sub(exit, entry) : sub(entry, exit);
  const units = mul(dec(input.qty), dec(input.terms.contractSize));
  const pnl = input.terms.category === 'linear' ? mul(units, move) : div(mul(units, move), mul(entry, exit), input.scale ?? 12);
  return str(pnl);
}

/** Reward ÷ risk of a take-profit: (tp − entry) ÷ (entry − stop), signed for the side (2 = "2R"). */
export function rMultiple(input: { side: Side; entry: string; stop: string; takeProfit: string }): string {
  const entry = dec(input.entry);
  const risk = input.side === 'BUY' ? sub(entry, dec(input.stop)) : sub(dec(input.stop), entry);
  const reward = input.side === 'BUY' ? sub(dec(input.takeProfit), entry) : sub(entry, dec(input.takeProfit));
  return str(div(reward, risk, 2));
}

/**
 * What an order of `qty` is worth in USD at `price`, exact: linear qty × contractSize × price (the
 * quote, USDT/USD); inverse qty × contractSize (USD contracts). Unrounded: the display rounds.
 */
export function notionalOf(input: { terms: Pick<InstrumentTerms, 'category' | 'contractSize'>; qty: string; price: string }): string {
  const units = mul(dec(input.qty), dec(input.terms.contractSize));
  return str(input.terms.category === 'linear' ? mul(units, dec(input.price)) : units);
}

/** Initial margin at `leverage`: notional ÷ leverage, in the settle currency. */
export function marginRequired(input: { terms: Pick<InstrumentTerms, 'category' | 'contractSize'>; qty: string; price: string; leverage: number | string }): string {
  const qty = dec(input.qty);
  const size = dec(input.terms.contractSize);
  const notional = input.terms.category === 'linear' ? mul(mul(qty, size), dec(input.price)) : div(mul(qty, size), dec(input.price), 18);
  return str(div(notional, dec(input.leverage), 8, 'up'));
}

/**
 * Estimated liquidation price of a new isolated position (no fees, one maintenance rate), rounded to
 * 8 places: linear long EP·(1 − 1/L)/(1 − m), short EP·(1 + 1/L)/(1 + m); inverse long EP/(1 + 1/L − m),
 * short EP/(1 − 1/L + m) (paper-economics.md, derived). Null when the position cannot be liquidated
 * (e.g. a 1× short on an inverse contract).
 */
export function estimatedLiquidationPrice(input: {
  category: 'linear' | 'inverse';
  side: Side;
  entry: string;
  leverage: number | string;
  maintenanceRate: number | string;
}): string | null {
  const entry = dec(input.entry);
  const invL = div(dec(1), dec(input.leverage), 18);
  const m = dec(input.maintenanceRate);
  const one = dec(1);
  const long = input.side === 'BUY';
  let price: Decimal;
  if (input.category === 'linear') {
    price = long ? div(mul(entry, sub(one, invL)), sub(one, m), 8) : div(mul(entry, add1(invL)), add1(m), 8);
  } else {
    const denominator = long ? sub(add1(invL), m) : add1(sub(m, invL));
    if (cmp(denominator, dec(0)) <= 0) return null;
    price = div(entry, denominator, 8);
  }
  return cmp(price, dec(0)) > 0 ? str(price) : null;
}

const add1 = (a: Decimal): Decimal => ({ units: a.units + 10n ** BigInt(a.scale), scale: a.scale });
