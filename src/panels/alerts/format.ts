import type { Alert } from '../../api/contracts/alerts';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';

const price = new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 });

/** A quote price as traders read it: thousands separators, no trailing zeros. */
export const formatPrice = (value: number): string => price.format(value);

/** Signed distance from `price` to `trigger` in percent of `price`: "+1.25 %", "−0.40 %". */
export function formatDistance(trigger: number, current: number | undefined): string {
  if (current === undefined || !Number.isFinite(current) || current <= 0) return '—';
  const pct = ((trigger - current) / current) * 100;
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '';
  return `${sign}${Math.abs(pct).toFixed(2)} %`;
}

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateTime = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

/** Today's times as "14:05:09", older ones as "03/01, 14:05" (local time). */
export function formatWhen(iso: string, now = new Date()): string {
  const d = new Date(iso);
  return d.toDateString() === now.toDateString() ? time.format(d) : dateTime.format(d);
}

/** Where an alert listens: "binance", or "binance · testnet" for one set on testnet (evaluated on testnet's prices). */
export function alertMarketLabel(alert: Pick<Alert, 'exchange' | 'network'>): string {
  return `${EXCHANGE_DISPLAY_NAMES[alert.exchange]}${alert.network === 'TESTNET' ? ' · testnet' : ''}`;
}

/**
 * Moving or re-arming takes the live price as the new initial price, and the panel's prices are the
 * user's network's: on an alert of the other network, the reason it cannot be done here (else null).
 */
export function otherNetworkReason(alert: Pick<Alert, 'network'>, network: Alert['network'], action: string): string | null {
  if (alert.network === network) return null;
  return `This alert listens on ${alert.network === 'TESTNET' ? 'testnet' : 'mainnet'}: switch to ${alert.network === 'TESTNET' ? 'testnet' : 'mainnet'} to ${action} it`;
}
