import { decimalsOf, divRound, fixed, formatFixed, ONE, parseFixed, type Rounding } from './decimal';
import type { Category, InstrumentSpec } from './types';

export type GridParse = bigint | 'invalid' | 'off-grid';

/**
 * One instrument's integer units: prices in ticks, sizes in lot steps, values in fixed (1e-18 of
 * the settle currency). Linear values are exact integer products; inverse values (USD / price)
 * are the only divisions, rounded at 1e-18.
 */
export class Units {
  readonly category: Category;
  readonly tick: bigint;
  readonly step: bigint;
  readonly tickDecimals: number;
  readonly stepDecimals: number;
  readonly minQty: bigint;
  readonly maxQty: bigint;
  readonly maxMarketQty: bigint;
  readonly minNotional: bigint | null;
  /** Fixed amount of one step: base coin (linear) or USD (inverse). */
  readonly stepAmount: bigint;
  /** Linear: fixed value of one step at one tick. */
  private readonly linearUnit: bigint;

  constructor(readonly spec: InstrumentSpec) {
    this.category = spec.category;
    this.tick = fixed(spec.tickSize);
    this.step = fixed(spec.qtyStep);
    this.tickDecimals = decimalsOf(spec.tickSize);
    this.stepDecimals = decimalsOf(spec.qtyStep);
    const contract = fixed(spec.contractSize);
    if (this.tick <= 0n || this.step <= 0n || contract <= 0n) throw new Error(`${spec.symbol}: tick, step and contract size must be positive`);
    // Refuse an instrument whose unit products are not exact at 1e-18 rather than round silently.
    if ((this.step * contract) % ONE !== 0n) throw new Error(`${spec.symbol}: step × contract size is not exact at 1e-18`);
    this.stepAmount = (this.step * contract) / ONE;
    if ((this.stepAmount * this.tick) % ONE !== 0n) throw new Error(`${spec.symbol}: step × tick is not exact at 1e-18`);
    this.linearUnit = (this.stepAmount * this.tick) / ONE;
    // Orders keep Σ price × qty exactly (records.ts sumPriceQty).
    if ((this.tick * this.step) % ONE !== 0n) throw new Error(`${spec.symbol}: tick × step is not exact at 1e-18`);
    const steps = (s: string) => {
      const v = this.toSteps(s);
      if (typeof v !== 'bigint') throw new Error(`${spec.symbol}: ${s} is not a multiple of the step ${spec.qtyStep}`);
      return v;
    };
    this.minQty = steps(spec.minQty);
    this.maxQty = steps(spec.maxQty);
    this.maxMarketQty = spec.maxMarketQty ? steps(spec.maxMarketQty) : this.maxQty;
    this.minNotional = spec.minNotional ? fixed(spec.minNotional) : null;
  }

  get symbol(): string {
    return this.spec.symbol;
  }

  /** A decimal string → ticks, 'invalid' (not a positive decimal) or 'off-grid' (not a multiple of the tick). */
  toTicks(s: string): GridParse {
    return toGrid(s, this.tick);
  }

  toSteps(s: string): GridParse {
    return toGrid(s, this.step);
  }

  priceOf(ticks: bigint): string {
    return formatFixed(ticks * this.tick, this.tickDecimals);
  }

  qtyOf(steps: bigint): string {
    return formatFixed(steps * this.step, this.stepDecimals);
  }

  priceFixed(ticks: bigint): bigint {
    return ticks * this.tick;
  }

  /** A fixed price → ticks (liquidation and bankruptcy prices are not on the grid). */
  ticksOf(price: bigint, rounding: Rounding): bigint {
    return divRound(price, this.tick, rounding);
  }

  /** Fixed amount of `steps`: base coin (linear) or USD (inverse). */
  amount(steps: bigint): bigint {
    return steps * this.stepAmount;
  }

  /**
   * Value of `steps` at `ticks` in the settle currency: qty × contract × price for linear,
   * qty × contract ÷ price for inverse (coin). Fees, margins and PnL are all built from it.
   */
  value(steps: bigint, ticks: bigint, rounding: Rounding = 'half-up'): bigint {
    if (this.category === 'linear') return steps * ticks * this.linearUnit;
    return divRound(steps * this.stepAmount * ONE, ticks * this.tick, rounding);
  }

  /** Value at a fixed (off-grid) price. */
  valueAt(steps: bigint, price: bigint, rounding: Rounding = 'half-up'): bigint {
    const amount = this.amount(steps);
    return this.category === 'linear' ? divRound(amount * price, ONE, rounding) : divRound(amount * ONE, price, rounding);
  }
}

function toGrid(s: string, unit: bigint): GridParse {
  const v = parseFixed(s);
  if (v === null || v <= 0n) return 'invalid';
  return v % unit === 0n ? v / unit : 'off-grid';
}
