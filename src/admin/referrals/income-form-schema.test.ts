import { describe, expect, it } from 'vitest';
import { incomeFormSchema, toNumberOrNull } from './income-form-schema';

const errors = (values: unknown) => {
  const res = incomeFormSchema.safeParse(values);
  return res.success ? {} : Object.fromEntries(res.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('income form (SPEC §5)', () => {
  it('requires a date and a numeric income with SPEC texts', () => {
    expect(errors({ date: null, income: '' })).toEqual({ date: 'Please enter date', income: 'Please enter income' });
    expect(errors({ date: 'not a month', income: 'abc' })).toEqual({ date: 'Please enter date', income: 'Please enter income' });
    expect(errors({ date: '2026-05-01', income: -1 })).toEqual({ income: 'Income cannot be negative' });
  });

  it('parses the month as a UTC date and the income as a number', () => {
    expect(incomeFormSchema.parse({ date: '2026-05-01', income: '1,250.5' })).toEqual({ date: new Date('2026-05-01T00:00:00.000Z'), income: 1250.5 });
    expect(incomeFormSchema.parse({ date: '2026-01', income: 0 }).date.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('turns non-numbers into null', () => {
    expect(toNumberOrNull('12')).toBe(12);
    expect(toNumberOrNull('1e3')).toBe(1000);
    expect(toNumberOrNull('x')).toBeNull();
    expect(toNumberOrNull('')).toBeNull();
    expect(toNumberOrNull(Number.NaN)).toBeNull();
    expect(toNumberOrNull(undefined)).toBeNull();
  });
});
