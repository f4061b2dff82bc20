import { dec, div, isZero, mul, str } from '../../api/contracts/decimal';
import { splitPair } from '../../api/market/symbols';

/** BitMEX says XBT for bitcoin. */
const canonical = (c: string) => (c.toUpperCase() === 'XBT' ? 'BTC' : c.toUpperCase());
const DOLLARS = new Set(['USD', 'USDT', 'USDC']);

/** How an amount in the account's currency becomes the amount shown (SPEC `balanceCurrency`). */
export interface Conversion {
  currency: string;
  /** null: shown as it is (same currency). */
  rate: { symbol: string; price: number; invert: boolean } | null;
  /** USD, USDT and USDC are shown one for one ("≈"). */
  approximate: boolean;
}

/**
 * The way from `from` to `to` with the exchange's last prices: the same currency; dollars to dollars
 * one for one; else a pair with one as base and the other (or a dollar, for dollars) as quote —
 * multiply by its price from base to quote, divide the other way. Null when no pair links them.
 */
export function findConversion(from: string, to: string, prices: ReadonlyMap<string, number>): Conversion | null {
  const a = canonical(from);
  const b = canonical(to);
  if (a === b) return { currency: to, rate: null, approximate: false };
  if (DOLLARS.has(a) && DOLLARS.has(b)) return { currency: to, rate: null, approximate: true };
  let best: { conversion: Conversion; score: number } | null = null;
  for (const [symbol, price] of prices) {
    if (!(price > 0)) continue;
    const pair = splitPair(symbol);
    if (!pair) continue;
    const base = canonical(pair.base);
    const quote = canonical(pair.quote);
    const quoteIs = (c: string) => (quote === c ? 2 : DOLLARS.has(quote) && DOLLARS.has(c) ? 1 : 0);
    let score = 0;
    let invert = false;
    if (base === a && quoteIs(b)) score = quoteIs(b);
    else if (base === b && quoteIs(a)) {
      score = quoteIs(a);
      invert = true;
    }
    if (score > (best?.score ?? 0)) best = { conversion: { currency: to, rate: { symbol, price, invert }, approximate: score < 2 }, score };
  }
  return best?.conversion ?? null;
}

/** `value` (decimal string) through `c`: exact decimal arithmetic on the price as the exchange printed it. */
export function convertAmount(value: string, c: Conversion): string {
  if (!c.rate) return value;
  const price = dec(String(c.rate.price));
  if (isZero(price)) return value;
  return str(c.rate.invert ? div(dec(value), price, 12) : mul(dec(value), price));
}
