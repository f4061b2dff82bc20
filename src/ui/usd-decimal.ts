import { dec, fixed, groupThousands } from '../api/contracts/decimal';

/** An exact USD decimal string for the screen: cents, en-US thousands separators, no sign ("1,234.57"). */
export function formatUsdDecimal(value: string): string {
  return groupThousands(fixed(dec(value), 2).replace('-', ''));
}
