import type { Instrument } from '../../api/contracts/exchanges';

/**
 * One instrument identity (issue 22): an exchange's own name typed in the pair box (OKX
 * `BTC-USDT-SWAP`) becomes the product's pair id (`BTCUSDT`), which the chart, Order entry, the
 * positions, the orders and the chart lines all use — else trading would see two different pairs.
 */
export function productSymbol(typed: string, instruments: readonly Instrument[] | undefined): string {
  const wanted = typed.trim().toUpperCase();
  const match = instruments?.find((i) => i.exchangeSymbol.toUpperCase() === wanted || i.symbol.toUpperCase() === wanted);
  return match ? match.symbol : typed;
}

