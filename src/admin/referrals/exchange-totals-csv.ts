import { exchangeMonthEntrySchema } from '../../api/contracts/referrals';
import { parseMonthUtc } from '../../ui/referral-format';
import { csvRecords } from '../csv';
import { toDecimalTextOrNull } from './income-form-schema';

/** One month's exchange totals as sent (`PATCH /v1/referrals/volume`): amounts are exact decimal strings. */
export interface ExchangeMonthEntry {
  date: string;
  totalExchangeVolume: string;
  totalExchangeIncome: string;
}

/**
 * A CSV amount as exact decimal text (separators and `$` tolerated), checked with the contract's
 * field (no more decimals than the column keeps, not negative): the text or the problem.
 */
function csvAmount(cell: string | undefined, field: 'totalExchangeVolume' | 'totalExchangeIncome', label: string): { value: string } | { problem: string } {
  const notANumber = { problem: `${label} must be a number ≥ 0` };
  const text = toDecimalTextOrNull(cell ?? '');
  if (text === null) return notANumber;
  const parsed = exchangeMonthEntrySchema.shape[field].safeParse(text);
  if (parsed.success) return { value: parsed.data };
  const message = parsed.error.issues[0]?.message ?? 'Not valid';
  return /negative/.test(message) ? notANumber : { problem: `${label}: ${message}` };
}

/**
 * Exchange totals from CSV with a header `month,volume,income` (also `date`,
 * `totalExchangeVolume`, `totalExchangeIncome`). Returns the entries or the problems by row.
 */
export function parseExchangeTotalsCsv(text: string): { entries: ExchangeMonthEntry[]; errors: string[] } {
  const { header, records } = csvRecords(text);
  const col = (...names: string[]) => names.find((n) => header.includes(n));
  const monthCol = col('month', 'date');
  const volumeCol = col('volume', 'totalexchangevolume', 'exchangevolume');
  const incomeCol = col('income', 'totalexchangeincome', 'exchangeincome');
  if (!monthCol || !volumeCol || !incomeCol) return { entries: [], errors: ['The first row must name the columns: month, volume, income'] };
  const entries: ExchangeMonthEntry[] = [];
  const errors: string[] = [];
  records.forEach((r, i) => {
    const row = i + 2;
    const month = parseMonthUtc(r[monthCol] ?? '');
    const volume = csvAmount(r[volumeCol], 'totalExchangeVolume', 'volume');
    const income = csvAmount(r[incomeCol], 'totalExchangeIncome', 'income');
    if (!month) errors.push(`Row ${row}: month "${r[monthCol]}" is not YYYY-MM`);
    else if ('problem' in volume) errors.push(`Row ${row}: ${volume.problem}`);
    else if ('problem' in income) errors.push(`Row ${row}: ${income.problem}`);
    else entries.push({ date: month.toISOString(), totalExchangeVolume: volume.value, totalExchangeIncome: income.value });
  });
  if (!records.length) errors.push('No rows under the header');
  return { entries, errors };
}
