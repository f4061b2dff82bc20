import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimalPlaces, decimalSchema, instantSchema, isStorableInstant, jsonDepth } from './common';

describe('decimalPlaces', () => {
  it.each([
    [0, 0],
    [12, 0],
    [0.25, 2],
    [-0.0001, 4],
    [1e-9, 9],
    [1.5e-7, 8],
    [5e-324, 324],
    [1e21, 0],
    [0.1 + 0.2, 17],
  ])('%s has %i', (n, places) => expect(decimalPlaces(n)).toBe(places));
});

describe('decimalSchema (what a numeric(p, s) column holds)', () => {
  const money = decimalSchema(z.number(), { precision: 24, scale: 8 });
  it('keeps values the column stores exactly', () => {
    for (const n of [0.00000001, -123.45678901, 999_999_999_999_999]) expect(money.safeParse(n).success).toBe(true);
  });
  it('refuses more decimals than the scale, rather than letting PostgreSQL round them', () => {
    for (const n of [1e-9, 5e-324, 0.1 + 0.2]) expect(money.safeParse(n).error?.issues[0].message).toBe('Use at most 8 decimal places');
  });
  it('refuses more digits before the point than the column holds', () => {
    for (const n of [1e16, -1e308]) expect(money.safeParse(n).error?.issues[0].message).toBe('At most 16 digits before the decimal point');
  });
});

describe('instantSchema', () => {
  const at = instantSchema('Enter a date');
  it('takes 1900 to 9999 in UTC, whatever the offset says', () => {
    expect(at.safeParse('1900-01-01T00:00:00Z').success).toBe(true);
    expect(at.safeParse('9999-12-31T23:59:59.999Z').success).toBe(true);
    expect(at.safeParse('1900-01-01T00:30:00+01:00').success).toBe(false);
    expect(at.safeParse('9999-12-31T23:30:00-01:00').success).toBe(false);
    expect(at.safeParse('0000-01-01T00:00:00Z').success).toBe(false);
  });
  it('isStorableInstant is PostgreSQL’s and JavaScript’s common range', () => {
    expect(isStorableInstant(Date.parse('0001-01-01T00:00:00Z'))).toBe(true);
    expect(isStorableInstant(Date.parse('0000-12-31T23:59:59.999Z'))).toBe(false);
    expect(isStorableInstant(Date.parse('+010000-01-01T00:00:00Z'))).toBe(false);
    expect(isStorableInstant(Number.NaN)).toBe(false);
  });
});

describe('jsonDepth', () => {
  it('counts containers, not scalars', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
  });
  it('measures 100,000 levels without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(jsonDepth(deep)).toBe(100_000);
  });
});
