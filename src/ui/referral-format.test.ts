import { describe, expect, it } from 'vitest';
import { currentUtcMonth, formatIncome, formatMonth, formatUsd, formatVolume, parseMonthUtc, recommendedPercentage } from './referral-format';

describe('referral formats (SPEC §2)', () => {
  it('prefixes volume with $ for USD and with the currency otherwise', () => {
    expect(formatVolume('1234567.891', 'USD')).toBe('$1,234,567.89');
    expect(formatVolume('0', 'USD')).toBe('$0');
    expect(formatVolume('12.345678912', 'XBT')).toBe('XBT 12.34567891');
    expect(formatVolume('-1500', 'USD')).toBe('-$1,500');
    expect(formatVolume('0.10', 'USD')).toBe('$0.1');
  });

  it('formats the API decimal strings exactly, past what a float holds', () => {
    // 26 digits before the point: a float would print 12345678901234567000000000.
    expect(formatVolume('12345678901234567890123456.125', 'USD')).toBe('$12,345,678,901,234,567,890,123,456.12');
    expect(formatIncome('12345678901234.123456789012')).toBe('$12,345,678,901,234.12');
    expect(formatVolume('0.000000015', 'XBT')).toBe('XBT 0.00000002');
    expect(formatVolume('-0.001', 'USD')).toBe('$0');
    expect(formatIncome('-0.001')).toBe('$0.00');
  });

  it('shows incomes en-US with thousands separators and a $ prefix', () => {
    expect(formatIncome('1234.5')).toBe('$1,234.50');
    expect(formatIncome('1000000')).toBe('$1,000,000.00');
    expect(formatIncome('0')).toBe('$0.00');
    // Cents rounded half to even, as formatUsdDecimal rounds every exact amount on screen.
    expect(formatIncome('-42.125')).toBe('-$42.12');
    expect(formatIncome('-42.135')).toBe('-$42.14');
    expect(formatUsd('2500.456')).toBe('$2,500.46');
  });

  it('shows months as 2-digit month / 2-digit year, en-GB, in UTC', () => {
    expect(formatMonth('2026-05-01T00:00:00.000Z')).toBe('05/26');
    expect(formatMonth('2025-12-01T00:00:00.000Z')).toBe('12/25');
    // The first instant of January (UTC) is still 31 December in New York: must not show 12/25.
    expect(formatMonth('2026-01-01T00:00:00.000Z')).toBe('01/26');
  });

  it('gives the recommended percentage with 2 decimals, none without exchange volume', () => {
    expect(recommendedPercentage('1500', '100000')).toBe('1.50');
    expect(recommendedPercentage('1', '3')).toBe('33.33');
    expect(recommendedPercentage('2', '3')).toBe('66.67');
    expect(recommendedPercentage('0', '10')).toBe('0.00');
    expect(recommendedPercentage('10', '0')).toBeNull();
    expect(recommendedPercentage('0.1', '0.3')).toBe('33.33');
  });


  it('parses a month string as a UTC date', () => {
    expect(parseMonthUtc('2026-05')?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(parseMonthUtc('2026-05-01')?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(parseMonthUtc('2026-05-31')?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
    expect(parseMonthUtc('2026-05-31T23:30:00-02:00')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseMonthUtc('2026-13')).toBeNull();
    expect(parseMonthUtc('May 2026')).toBeNull();
    expect(parseMonthUtc('')).toBeNull();
  });

  it('defaults the month picker to the current UTC month', () => {
    expect(currentUtcMonth(new Date('2026-07-31T23:30:00-05:00'))).toBe('2026-08-01');
    expect(currentUtcMonth(new Date('2026-01-15T12:00:00Z'))).toBe('2026-01-01');
  });
});
