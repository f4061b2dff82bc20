import type { Agg } from './aggregate';
import { volumeContractSize } from './catalogue';
import type { InstrumentModel } from './model';

/**
 * Engine units (ticks, lot steps) → the quantities the exchanges print. "Native" volume is in the
 * instrument's order unit (base coin, USD contracts, or contracts of ctVal).
 */

export const fmtPrice = (model: InstrumentModel, ticks: number): string => (ticks * model.tick).toFixed(model.tickDecimals);
export const numPrice = (model: InstrumentModel, ticks: number): number => model.toPrice(ticks);

export const nativeQty = (model: InstrumentModel, steps: number): number => Number((steps * model.step).toFixed(model.stepDecimals));
export const fmtQty = (model: InstrumentModel, steps: number): string => (steps * model.step).toFixed(model.stepDecimals);

/** Volume in the base coin (BTC): for inverse contracts Σ USD / price (quanto: via XBT's USD rate, `volumeContractSize`). */
export function baseVolume(model: InstrumentModel, agg: Pick<Agg, 'steps' | 'stepsInvPx'>): number {
  const unit = model.step * volumeContractSize(model.inst);
  return model.inst.category === 'inverse' ? agg.stepsInvPx * unit : agg.steps * unit;
}

/** Volume in the quote currency (USDT, or USD for inverse and quanto). */
export function quoteVolume(model: InstrumentModel, agg: Pick<Agg, 'steps' | 'stepsPx'>): number {
  const unit = model.step * volumeContractSize(model.inst);
  return model.inst.category === 'inverse' ? agg.steps * unit : agg.stepsPx * unit;
}

export function takerBuyBase(model: InstrumentModel, agg: Agg): number {
  return baseVolume(model, { steps: agg.buySteps, stepsInvPx: agg.stepsInvPx * (agg.buySteps / Math.max(agg.steps, 1)) });
}

export function takerBuyQuote(model: InstrumentModel, agg: Agg): number {
  return quoteVolume(model, { steps: agg.buySteps, stepsPx: agg.buyStepsPx });
}

/** Decimals for derived amounts: enough to be exact-looking, never float noise like 0.30000000000000004. */
export const fmtAmount = (v: number, decimals: number): string => v.toFixed(Math.min(decimals, 12));

/** Trims trailing zeros ("0.0100" → "0.01") — Bybit and OKX print decimals without padding in places. */
export const trimZeros = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
