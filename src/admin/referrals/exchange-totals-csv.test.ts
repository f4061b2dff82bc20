import { describe, expect, it } from 'vitest';
import { parseExchangeTotalsCsv } from './exchange-totals-csv';

describe('parseExchangeTotalsCsv', () => {
  it('reads months as UTC and numbers with separators', () => {
    expect(parseExchangeTotalsCsv('month,volume,income\n2026-01,"1,000,000",2500.5\n2025-12-01,$10,0')).toEqual({
      entries: [
        { date: '2026-01-01T00:00:00.000Z', totalExchangeVolume: '1000000', totalExchangeIncome: '2500.5' },
        { date: '2025-12-01T00:00:00.000Z', totalExchangeVolume: '10', totalExchangeIncome: '0' },
      ],
      errors: [],
    });
  });

  it('keeps the amounts exactly as written (no float on the way)', () => {
    expect(parseExchangeTotalsCsv('month,volume,income\n2026-01,12345678901234567890.123456789012,0.1').entries).toEqual([
      { date: '2026-01-01T00:00:00.000Z', totalExchangeVolume: '12345678901234567890.123456789012', totalExchangeIncome: '0.1' },
    ]);
  });

  it('names bad rows and a missing header', () => {
    expect(parseExchangeTotalsCsv('month,volume,income\nJan,1,1\n2026-02,x,1\n2026-03,1,').errors).toEqual([
      'Row 2: month "Jan" is not YYYY-MM',
      'Row 3: volume must be a number ≥ 0',
      'Row 4: income must be a number ≥ 0',
    ]);
    expect(parseExchangeTotalsCsv('month,volume,income\n2026-01,-1,1\n2026-02,1,0.0000000000001').errors).toEqual([
      'Row 2: volume must be a number ≥ 0',
      'Row 3: income: Use at most 12 decimal places',
    ]);
    expect(parseExchangeTotalsCsv('2026-01,1,1').errors).toEqual(['The first row must name the columns: month, volume, income']);
  });
});
