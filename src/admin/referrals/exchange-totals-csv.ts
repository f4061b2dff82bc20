import { parseMonthUtc } from '../../ui/referral-format';
import { csvNumber, csvRecords } from '../csv';

export interface ExchangeMonthEntry {
  date: string;
  totalExchangeVolume: number;
  totalExchangeIncome: number;
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
    const volume = csvNumber(r[volumeCol]);
    const income = csvNumber(r[incomeCol]);
    if (!month) errors.push(`Row ${row}: month "${r[monthCol]}" is not YYYY-MM`);
    else if (volume === undefined || Number.isNaN(volume) || volume < 0) errors.push(`Row ${row}: volume must be a number ≥ 0`);
    else if (income === undefined || Number.isNaN(income) || income < 0) errors.push(`Row ${row}: income must be a number ≥ 0`);
    else entries.push({ date: month.toISOString(), totalExchangeVolume: volume, totalExchangeIncome: income });
  });
  if (!records.length) errors.push('No rows under the header');
  return { entries, errors };
}
