import { cmp, dec, isMultipleOf, isZero, mul, roundToStep, str } from '../../../api/contracts/decimal';
import type { InstrumentTerms } from '../../../api/contracts/risk';

/**
 * A size or price as the trader types it, checked against the instrument's exact terms (Order entry
 * and the DOM ladder): a size on the step, at least the minimum, at most the maximum.
 */
export interface EntryTerms extends InstrumentTerms {
  tickSize: string;
  /** The exchange's minimum order value (quote currency, linear contracts; reduce-only orders are exempt), when it states one. */
  minNotional?: string;
}

export const isNumberText = (s: string) => /^\d+(\.\d+)?$/.test(s.trim());

/**
 * What is wrong with a number as it is being typed, said at the field at once (null: fine so far).
 * A number half typed ("", "0.", ".5") is fine until it is sent; letters, a comma or a sign are not.
 */
export function typingProblem(text: string): string | null {
  const s = text.trim();
  if (/^\d*\.?\d*$/.test(s)) return null;
  if (/^\d*,\d*$/.test(s)) return 'Use a point, not a comma (0.05)';
  return 'Use digits and a point, e.g. 0.05';
}

/** A size, snapped down to the step. */
export function snapQty(value: string, step: string): string {
  if (!isNumberText(value)) return value;
  return str(roundToStep(dec(value.trim()), dec(step), 'down'));
}

/** What is wrong with a size, said at the field (null: fine). */
export function qtyProblem(qty: string, terms: EntryTerms): string | null {
  if (!isNumberText(qty) || isZero(dec(qty))) return 'Enter a size';
  if (!isMultipleOf(dec(qty), dec(terms.stepSize))) return `Use a multiple of ${terms.stepSize}`;
  if (cmp(dec(qty), dec(terms.minQty)) < 0) return `Below the minimum ${terms.minQty}`;
  if (!isZero(dec(terms.maxQty)) && cmp(dec(qty), dec(terms.maxQty)) > 0) return `Above the maximum ${terms.maxQty}`;
  return null;
}

/**
 * What is wrong with an order's value (null: fine): a linear order worth less than the exchange's
 * minimum (qty × contract size × price, in the quote) is refused by the exchange, so it is said here
 * first. Reduce-only orders are exempt, as on the exchanges.
 */
export function notionalProblem(qty: string, price: string, terms: EntryTerms, reduceOnly: boolean): string | null {
  if (reduceOnly || terms.category !== 'linear' || !terms.minNotional || !isNumberText(qty) || !isNumberText(price)) return null;
  const value = mul(mul(dec(qty), dec(terms.contractSize)), dec(price));
  if (cmp(value, dec(terms.minNotional)) >= 0) return null;
  return `Worth ${str(roundToStep(value, dec('0.01'), 'down'))}, below the exchange's minimum order value ${terms.minNotional}`;
}
