import { cmp, dec, fixed, mul } from '../../api/contracts/decimal';
import type { Order, Side } from '../../api/contracts/trading';
import { show } from '../shared/trading/format';
import { isNumberText, type preview } from './order-math';

/**
 * Order entry's pure parts (no React): the one-line summary above the button, the placement toast's
 * text and the wrong-side messages of stop and targets.
 */

/** A coin amount in USD at `price`, two decimals (display only). */
export function usdOf(coin: string, price: string): string {
  return fixed(mul(dec(coin), dec(price)), 2);
}

/** The one line above the button: what the order risks (a bracket) or is worth (any other). */
export function summaryLine(input: { bracket: boolean; preview: ReturnType<typeof preview>; currency: string; riskPercent: number; worth: string | null; sizeMode: 'risk' | 'qty' }): string {
  const worth = input.worth ?? '';
  if (!input.bracket) return worth || 'Enter a size';
  const p = input.preview;
  if (!p) return 'Set the entry and a stop-loss to see the risk';
  const risk = `Risk ${show(p.riskAmount, 8)} ${input.currency}${input.sizeMode === 'risk' ? ` (${input.riskPercent} %)` : ''}`;
  const targets = p.rMultiples.filter((r) => r !== '—').map((r) => `${r}R`);
  return [risk, targets.length ? targets.join(' / ') : null, worth || null].filter(Boolean).join(' · ');
}

/** The toast of an order the exchange took: what, how much, where. */
export function placedText(o: Order): string {
  const what = { MARKET: 'market', LIMIT: 'limit', STOP_MARKET: 'stop-market', STOP_LIMIT: 'stop-limit', TAKE_PROFIT: 'take-profit', TAKE_PROFIT_MARKET: 'take-profit-market' }[o.type as string] ?? o.type.toLowerCase();
  const at = o.triggerPrice ? ` triggered at ${show(o.triggerPrice)}` : o.price ? ` at ${show(o.price)}` : '';
  return `Placed: ${o.side === 'BUY' ? 'buy' : 'sell'} ${what} ${show(o.qty)} ${o.symbol}${at}${o.status === 'FILLED' ? ' (filled)' : ''}`;
}

/** Stop and targets on the wrong side of the entry, each at its field, in words (nothing while a price is still missing). */
export function wrongSides(input: { side: Side; entry: string; stop: string; targets: string[] }): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isNumberText(input.entry)) return out;
  const entry = dec(input.entry);
  const long = input.side === 'BUY';
  const shown = show(input.entry);
  if (isNumberText(input.stop) && (long ? cmp(dec(input.stop), entry) >= 0 : cmp(dec(input.stop), entry) <= 0)) {
    out['stopLoss.triggerPrice'] = `A ${long ? 'buy' : 'sell'}'s stop-loss goes ${long ? 'below' : 'above'} the entry (${shown})`;
  }
  input.targets.forEach((t, i) => {
    if (isNumberText(t) && (long ? cmp(dec(t), entry) <= 0 : cmp(dec(t), entry) >= 0)) out[`takeProfits.${i}.price`] = `A ${long ? 'buy' : 'sell'}'s take-profit goes ${long ? 'above' : 'below'} the entry (${shown})`;
  });
  return out;
}

