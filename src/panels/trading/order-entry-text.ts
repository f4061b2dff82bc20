import { cmp, dec, fixed, mul } from '../../api/contracts/decimal';
import type { Balance, Order, Side } from '../../api/contracts/trading';
import { show } from '../shared/trading/format';
import { isNumberText, type preview } from './order-math';

/**
 * Order entry's pure parts (no React): the balance a new position is margined from, the one-line
 * summary above the button, the placement toast's text and the wrong-side messages of stop and targets.
 */

/** `BTC` and `XBT` are one coin (BitMEX writes XBT, in satoshi `XBt`). */
const coinOf = (c: string) => c.toUpperCase().replace(/^XBT$/, 'BTC');

/**
 * The balance a new position of this contract is margined from: for an inverse contract the settle
 * coin's own balance (never the USDT total: a USDT amount read as BTC sized an OKX inverse order
 * about 70,000 times too large), for a linear one the account balance in its settle currency.
 */
export function marginBalance(balance: Balance | undefined, category: 'linear' | 'inverse', settle: string | null): { currency: string; available: string } | null {
  if (!balance) return null;
  const wanted = settle ? coinOf(settle) : null;
  const asset = wanted ? balance.assets.find((a) => coinOf(a.currency) === wanted) : undefined;
  if (category === 'inverse') return asset ? { currency: asset.currency, available: asset.available } : { currency: settle ?? 'coin', available: '0' };
  if (!wanted || coinOf(balance.currency) === wanted || !asset) return { currency: balance.currency, available: balance.available };
  return { currency: asset.currency, available: asset.available };
}

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

