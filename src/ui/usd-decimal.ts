import { dec, fixed } from '../api/contracts/decimal';

/** An exact USD decimal string for the screen: cents, en-US thousands separators, no sign ("1,234.57"). */
export function formatUsdDecimal(value: string): string {
  const [int, frac] = fixed(dec(value), 2).replace('-', '').split('.');
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}
