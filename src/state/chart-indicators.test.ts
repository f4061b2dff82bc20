import { describe, expect, it } from 'vitest';
import {
  INDICATOR_COLORS,
  MAX_CHART_INDICATORS,
  draftOf,
  indicatorLabel,
  newIndicator,
  parseIndicators,
  toEngineIndicators,
  validateIndicatorDraft,
  type ChartIndicator,
} from './chart-indicators';

const sma: ChartIndicator = { id: 'a', kind: 'sma', period: 20, source: 'close', color: '#f5c518' };

describe('chart indicators', () => {
  it('give new indicators the usual defaults and the first colour the chart does not use', () => {
    expect(newIndicator('sma', [], 'x')).toEqual({ id: 'x', kind: 'sma', period: 20, source: 'close', color: INDICATOR_COLORS[0] });
    expect(newIndicator('bollinger', [sma], 'y')).toEqual({ id: 'y', kind: 'bollinger', period: 20, stdDev: 2, source: 'close', color: INDICATOR_COLORS[1] });
    expect(newIndicator('vwap', [], 'z')).toMatchObject({ kind: 'vwap', source: 'hlc3' });
  });

  it('label themselves as a trader reads them', () => {
    expect(indicatorLabel(sma)).toBe('SMA 20');
    expect(indicatorLabel({ ...sma, kind: 'ema', period: 50, source: 'hl2' })).toBe('EMA 50 hl2');
    expect(indicatorLabel({ id: 'b', kind: 'bollinger', period: 20, stdDev: 2.5, source: 'close', color: '#fff000' })).toBe('BB 20 2.5');
    expect(indicatorLabel({ id: 'v', kind: 'vwap', source: 'hlc3', color: '#fff000' })).toBe('VWAP');
  });

  it('read stored lists entry by entry: bad entries and duplicate ids dropped, at most eight kept', () => {
    expect(parseIndicators(undefined)).toBeUndefined();
    expect(parseIndicators('nope')).toBeUndefined();
    expect(parseIndicators([sma, { ...sma, id: 'b', period: 0 }, { ...sma, kind: 'macd' }, sma, { ...sma, id: 'c', extra: 1 }])).toEqual([sma, { ...sma, id: 'c' }]);
    const many = Array.from({ length: 12 }, (_, i) => ({ ...sma, id: `i${i}` }));
    expect(parseIndicators(many)).toHaveLength(MAX_CHART_INDICATORS);
  });

  it('validate the editor’s fields with a message at each bad one', () => {
    const draft = draftOf(sma);
    expect(validateIndicatorDraft('a', draft)).toEqual({ indicator: sma, errors: null });
    const bad = validateIndicatorDraft('a', { ...draft, kind: 'bollinger', period: 0, stdDev: 11, color: 'red' });
    expect(bad.errors).toEqual({
      period: 'Period must be a whole number of bars from 1 to 1000',
      stdDev: 'Band width must be from 0.1 to 10 standard deviations',
      color: 'Colour must be a hex colour such as #f5c518',
    });
    expect(validateIndicatorDraft('a', { ...draft, period: 2.5 }).errors?.period).toBeDefined();
    expect(validateIndicatorDraft('a', { ...draft, period: '' }).errors?.period).toBeDefined();
    expect(validateIndicatorDraft('a', { ...draft, period: 1001 }).errors?.period).toBeDefined();
    // VWAP has no period: whatever the field holds does not matter.
    expect(validateIndicatorDraft('v', { ...draft, kind: 'vwap', period: '', source: 'hlc3' }).indicator).toEqual({ id: 'v', kind: 'vwap', source: 'hlc3', color: '#f5c518' });
  });

  it('are engine indicators', () => {
    expect(toEngineIndicators([sma])).toEqual([sma]);
  });
});
