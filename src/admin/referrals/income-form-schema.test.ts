import { describe, expect, it } from 'vitest';
import { incomeFormSchema, toDecimalTextOrNull } from './income-form-schema';

const errors = (values: unknown) => {
  const res = incomeFormSchema.safeParse(values);
  return res.success ? {} : Object.fromEntries(res.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('income form (SPEC §5)', () => {
  it('requires a date and a numeric income with SPEC texts', () => {
    expect(errors({ date: null, income: '' })).toEqual({ date: 'Please enter date', income: 'Please enter income' });
    expect(errors({ date: 'not a month', income: 'abc' })).toEqual({ date: 'Please enter date', income: 'Please enter income' });
    expect(errors({ date: '2026-05-01', income: '-1' })).toEqual({ income: 'Income cannot be negative' });
  });

  it("keeps the contract's checks: the column's 12 decimals and the upper bound", () => {
    expect(errors({ date: '2026-05-01', income: '0.0000000000001' })).toEqual({ income: 'Use at most 12 decimal places' });
    expect(errors({ date: '2026-05-01', income: '1000000000000.01' })).toEqual({ income: 'At most 1,000,000,000,000' });
  });

  it('parses the month as a UTC date and the income as the exact decimal string typed', () => {
    expect(incomeFormSchema.parse({ date: '2026-05-01', income: '1,250.5' })).toEqual({ date: new Date('2026-05-01T00:00:00.000Z'), income: '1250.5' });
    expect(incomeFormSchema.parse({ date: '2026-01', income: '0' }).date.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    // Past what a float holds (a float reads 123456789012.12346).
    expect(incomeFormSchema.parse({ date: '2026-01', income: '123456789012.123456789012' }).income).toBe('123456789012.123456789012');
  });

  it('reads amount text exactly and turns non-numbers into null', () => {
    expect(toDecimalTextOrNull('12')).toBe('12');
    expect(toDecimalTextOrNull('$ 1,000.50')).toBe('1000.5');
    expect(toDecimalTextOrNull('1e3')).toBe('1000');
    expect(toDecimalTextOrNull('.5')).toBe('0.5');
    expect(toDecimalTextOrNull('5.')).toBe('5');
    expect(toDecimalTextOrNull(0.1)).toBe('0.1');
    expect(toDecimalTextOrNull('0.30000000000000000001')).toBe('0.30000000000000000001');
    expect(toDecimalTextOrNull('x')).toBeNull();
    expect(toDecimalTextOrNull('1e99999999')).toBeNull();
    expect(toDecimalTextOrNull('')).toBeNull();
    expect(toDecimalTextOrNull(Number.NaN)).toBeNull();
    expect(toDecimalTextOrNull(undefined)).toBeNull();
  });
});
