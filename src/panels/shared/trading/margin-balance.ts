import type { Balance } from '../../../api/contracts/trading';

/** `BTC` and `XBT` are one coin (BitMEX writes XBT, in satoshi `XBt`). */
const coinOf = (c: string) => c.toUpperCase().replace(/^XBT$/, 'BTC');

/**
 * The balance a new position of this contract is margined from (Order entry and the chart's position
 * tool size from it): for an inverse contract the settle coin's own balance (never the USDT total: a
 * USDT amount read as BTC sized an OKX inverse order about 70,000 times too large), for a linear one
 * the account balance in its settle currency.
 */
export function marginBalance(balance: Balance | undefined, category: 'linear' | 'inverse', settle: string | null): { currency: string; available: string } | null {
  if (!balance) return null;
  const wanted = settle ? coinOf(settle) : null;
  const asset = wanted ? balance.assets.find((a) => coinOf(a.currency) === wanted) : undefined;
  if (category === 'inverse') return asset ? { currency: asset.currency, available: asset.available } : { currency: settle ?? 'coin', available: '0' };
  if (!wanted || coinOf(balance.currency) === wanted || !asset) return { currency: balance.currency, available: balance.available };
  return { currency: asset.currency, available: asset.available };
}
