import { describe, expect, it } from 'vitest';
import { stepInterval } from './hotkey-actions';

describe('interval hotkeys', () => {
  const favourites = ['1m', '5m', '15m', '1h'] as const;
  it('steps through the favourites and wraps round', () => {
    expect(stepInterval(favourites, '5m', 1)).toBe('15m');
    expect(stepInterval(favourites, '1h', 1)).toBe('1m');
    expect(stepInterval(favourites, '1m', -1)).toBe('1h');
  });
  it('from an interval that is not a favourite, goes to the nearest favourite that way', () => {
    expect(stepInterval(favourites, '30m', 1)).toBe('1h');
    expect(stepInterval(favourites, '30m', -1)).toBe('15m');
    expect(stepInterval(favourites, '1d', 1)).toBe('1m');
    expect(stepInterval([], '1m', 1)).toBeNull();
  });
});
