import { describe, expect, it } from 'vitest';
import { decimalsOf, formatPrice, formatSigned, formatVolume, roundToTick } from './price-format';

describe('tick rounding', () => {
  it('rounds to the nearest tick without binary noise', () => {
    expect(roundToTick(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(roundToTick(27123.46, 0.1)).toBe(27123.5);
    expect(roundToTick(27123.44, 0.5)).toBe(27123.5);
    expect(roundToTick(27123.24, 0.5)).toBe(27123);
    expect(roundToTick(0.000012345, 0.00000001)).toBe(0.00001235);
    expect(roundToTick(100000.014, 0.01)).toBe(100000.01);
  });

  it('counts the decimals a tick size needs', () => {
    expect(decimalsOf(1)).toBe(0);
    expect(decimalsOf(0.1)).toBe(1);
    expect(decimalsOf(0.5)).toBe(1);
    expect(decimalsOf(0.0005)).toBe(4);
    expect(decimalsOf(5e-8)).toBe(8);
  });
});

describe('formatting', () => {
  it('uses the instrument precision and never prints -0', () => {
    expect(formatPrice(27123.5, 2)).toBe('27123.50');
    expect(formatPrice(-0.0001, 2)).toBe('0.00');
    expect(formatPrice(-1.5, 1)).toBe('-1.5');
  });

  it('abbreviates volume', () => {
    expect(formatVolume(950)).toBe('950');
    expect(formatVolume(12_345)).toBe('12.35K');
    expect(formatVolume(4_560_000)).toBe('4.56M');
    expect(formatVolume(1_200_000_000)).toBe('1.2B');
    expect(formatVolume(12.5)).toBe('12.5');
  });

  it('signs PnL', () => {
    expect(formatSigned(12.3)).toBe('+12.30');
    expect(formatSigned(-4)).toBe('-4.00');
    expect(formatSigned(0)).toBe('0.00');
    // A coin amount keeps its digits: 0.00025 BTC is not "+0.00".
    expect(formatSigned(0.00025, 8)).toBe('+0.00025000');
    expect(formatSigned(-0.0001234, 8)).toBe('-0.00012340');
  });
});
