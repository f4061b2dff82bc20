import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, cmp, columnDecimalSchema, dec, decimalStringSchema, groupThousands, div, fixed, isMultipleOf, mul, round, roundToStep, str, sub } from './decimal';

describe('exact decimals', () => {
  it('reads what exchanges print and writes plain decimal strings', () => {
    expect(str(dec('65000.50'))).toBe('65000.5');
    expect(str(dec('-0.001'))).toBe('-0.001');
    expect(str(dec('1e-7'))).toBe('0.0000001');
    expect(str(dec('1.5E+3'))).toBe('1500');
    expect(str(dec(0.1))).toBe('0.1');
    expect(str(dec('007.50'))).toBe('7.5');
    expect(() => dec('1,5')).toThrow(/Not a decimal/);
    expect(() => dec(Number.NaN)).toThrow();
  });

  it('adds money without float drift: 0.1 + 0.2 is 0.3', () => {
    expect(str(add(dec('0.1'), dec('0.2')))).toBe('0.3');
    let total = dec('0');
    for (let i = 0; i < 1000; i++) total = add(total, dec('0.01'));
    expect(str(total)).toBe('10');
  });

  it('multiplies and divides with an explicit rounding', () => {
    expect(str(mul(dec('0.001'), dec('65000.5')))).toBe('65.0005');
    expect(str(div(dec('1'), dec('3'), 4))).toBe('0.3333');
    expect(str(div(dec('2'), dec('3'), 4, 'down'))).toBe('0.6666');
    expect(str(div(dec('2'), dec('3'), 4))).toBe('0.6667');
    expect(str(div(dec('-2'), dec('3'), 4, 'down'))).toBe('-0.6666');
    expect(str(round(dec('0.125'), 2))).toBe('0.12'); // half-even
    expect(str(round(dec('0.125'), 2, 'half-up'))).toBe('0.13');
    expect(() => div(dec('1'), dec('0'))).toThrow(/zero/);
  });

  it('snaps to ticks and lot steps', () => {
    expect(str(roundToStep(dec('65000.26'), dec('0.5')))).toBe('65000.5');
    expect(str(roundToStep(dec('0.0279'), dec('0.001'), 'down'))).toBe('0.027');
    expect(isMultipleOf(dec('65000.5'), dec('0.5'))).toBe(true);
    expect(isMultipleOf(dec('65000.3'), dec('0.5'))).toBe(false);
    expect(fixed(dec('65000.5'), 2)).toBe('65000.50');
    expect(fixed(dec('-0.004'), 2)).toBe('0.00');
  });

  it('agrees with BigInt arithmetic on random values (add, sub, mul are exact; div∘mul round-trips)', () => {
    const decimal = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 12 })).map(([units, scale]) => ({ units, scale }));
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(cmp(sub(add(a, b), b), a)).toBe(0);
        expect(cmp(dec(str(a)), a)).toBe(0);
        if (b.units !== 0n) expect(cmp(div(mul(a, b), b, 30), a)).toBe(0);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('validates wire decimals naming what is wrong', () => {
    const qty = decimalStringSchema({ maxScale: 8 });
    expect(qty.safeParse('0.001').success).toBe(true);
    expect(qty.safeParse('0').error?.issues[0].message).toBe('Must be greater than 0');
    expect(qty.safeParse('1e3').error?.issues[0].message).toMatch(/decimal number/);
    expect(qty.safeParse('0.000000001').error?.issues[0].message).toBe('Use at most 8 decimal places');
    expect(qty.safeParse('-1').success).toBe(false);
    expect(decimalStringSchema({ signed: true }).safeParse('-12.5').success).toBe(true);
    // Text that is no number at all is a validation error, not an exception (the API must answer 400).
    for (const bad of ['aaaa', 'Infinity', 'NaN', '2023-06', '']) expect(qty.safeParse(bad).success).toBe(false);
  });

  it('reads a numeric(p, s) column value as exact text, refusing what the column would round or reject', () => {
    const money = columnDecimalSchema({ precision: 24, scale: 8 }, { min: { value: '0', inclusive: false, message: 'Must be above 0' }, max: { value: '1000000000000', message: 'Too large' } });
    const issue = (v: unknown) => money.safeParse(v).error?.issues[0].message;
    // More digits than a float holds, kept to the last one; trailing zeros dropped; numbers read through their text.
    expect(money.parse('999999999999.12345678')).toBe('999999999999.12345678');
    expect(money.parse(' 2500.50000000 ')).toBe('2500.5');
    expect(money.parse(0.1)).toBe('0.1');
    expect(money.parse('1e-7')).toBe('0.0000001');
    expect(issue('0.000000001')).toBe('Use at most 8 decimal places');
    expect(issue(5e-324)).toBe('Use at most 8 decimal places');
    expect(issue('0')).toBe('Must be above 0');
    expect(issue('1000000000000.00000001')).toBe('Too large');
    for (const bad of ['1,5', 'abc', '', '0x10', 'Infinity', NaN, Infinity, true, null]) expect(money.safeParse(bad).success).toBe(false);
    const ratio = columnDecimalSchema({ precision: 9, scale: 4 });
    expect(ratio.safeParse('100000').error?.issues[0].message).toBe('At most 5 digits before the decimal point');
    expect(ratio.parse('-99999.9999')).toBe('-99999.9999');
    // A huge exponent is refused at once, not computed (10 ** 99999999 as a BigInt takes seconds).
    expect(money.safeParse('1e99999999').success).toBe(false);
    expect(money.safeParse('1e-99999999').success).toBe(false);
  });

  it('groups thousands of a decimal text, keeping the sign and every decimal', () => {
    expect(['0', '999', '1000', '-1234567.5', '1234.00000001', '-12'].map(groupThousands)).toEqual(['0', '999', '1,000', '-1,234,567.5', '1,234.00000001', '-12']);
  });
});
