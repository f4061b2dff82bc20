import { dec, div, fixed, isZero, mul, roundToStep } from '../../../api/contracts/decimal';

const SHOWABLE = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A decimal string as the panels show it: trailing zeros cut, at most `max` decimals (display only).
 * Anything that is not (yet) a number — a size half typed ("0."), a typo ("abc") — shows as "—".
 */
export function show(value: string | null | undefined, max = 8): string {
  if (value === null || value === undefined || !SHOWABLE.test(value.trim())) return '—';
  const d = dec(value);
  const s = fixed(d, Math.min(max, Math.max(d.scale, 0)));
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** A price on the instrument's tick (nearest), with the tick's decimals; as given when the tick is unknown. */
export function showPrice(value: string | null | undefined, tick: string | null): string {
  if (value === null || value === undefined || !SHOWABLE.test(value.trim())) return '—';
  if (!tick) return show(value);
  const t = dec(tick);
  return fixed(roundToStep(dec(value), t, 'half-even'), t.scale);
}

/** Money with 2 decimals (or more for coins), signed. */
/** Coins whose amounts are shown to 8 decimals (a satoshi), not to cents. */
const COIN = /^(BTC|XBT|ETH)$/;

export function money(value: string, currency: string): string {
  const coin = COIN.test(currency);
  return `${fixed(dec(value), coin ? 8 : 2)} ${currency}`;
}

/**
 * A position's PnL in its own currency with the digits it needs (issue 22): a coin-margined
 * (inverse) position's in its coin to 8 decimals ("+0.00027322 BTC", never "0"), a linear one's in
 * the quote to 2 ("+30.00 USDT"). `currency` is the instrument's settle currency (exchange-info);
 * unknown (the list not loaded), the amount stands alone rather than under a guessed name.
 */
export function pnlText(p: { category: string }, value: string, currency = ''): string {
  if (!SHOWABLE.test(value.trim())) return '—';
  // A coin's amount needs satoshis: inverse contracts, and a quanto's XBT (BitMEX ETHUSD is linear).
  const inverse = p.category === 'inverse' || COIN.test(currency);
  const v = dec(value);
  const digits = fixed(v, inverse ? 8 : 2);
  return `${v.units > 0n ? '+' : ''}${digits}${currency ? ` ${currency}` : ''}`;
}

/** Unrealised PnL as % of the margin behind it (0 when there is no margin). */
export function pnlPercent(pnl: string, margin: string): string {
  const m = dec(margin);
  if (isZero(m)) return '—';
  return `${fixed(div(mul(dec(pnl), dec(100)), m, 4), 2)} %`;
}

export const MASK = '••••';

/** On the order rows and chart lines of a bracket the server manages (FF_ENABLE_SEMI_AUTO). */
export const MANAGED_NOTE = 'managed by server';
