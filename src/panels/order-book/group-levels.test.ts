import { describe, expect, it } from 'vitest';
import { fakeLevel } from '../../api/market/order-flow/fake-feed';
import { fillGroups, gridOf, groupUnits, unitsToPrice, type GroupRow } from './group-levels';

describe('grouping by tick multiples', () => {
  it('reads tick sizes exactly', () => {
    expect(gridOf('0.1')).toEqual({ scale: 1, tickUnits: 1 });
    expect(gridOf('0.50')).toEqual({ scale: 1, tickUnits: 5 });
    expect(gridOf('1')).toEqual({ scale: 0, tickUnits: 1 });
    expect(gridOf('0.0000001')).toEqual({ scale: 7, tickUnits: 1 });
    expect(gridOf('')).toBeNull();
    expect(gridOf('0')).toBeNull();
  });

  it('floors bids and ceils asks to the group, written back without float noise', () => {
    const half = gridOf('0.5')!;
    expect(unitsToPrice(groupUnits(67391.5, 0, half, 10), half)).toBe('67390.0');
    expect(unitsToPrice(groupUnits(67391.5, 1, half, 10), half)).toBe('67395.0');
    expect(unitsToPrice(groupUnits(67395, 1, half, 10), half)).toBe('67395.0');
    const pepe = gridOf('0.0000001')!;
    expect(unitsToPrice(groupUnits(0.0000123, 0, pepe, 5), pepe)).toBe('0.0000120');
    expect(unitsToPrice(groupUnits(0.0000123, 1, pepe, 5), pepe)).toBe('0.0000125');
    // 0.1 + 0.2 is not 0.3 in floats; on the grid it is.
    const tenth = gridOf('0.1')!;
    expect(unitsToPrice(groupUnits(0.1 + 0.2, 0, tenth, 1), tenth)).toBe('0.3');
  });

  it('sums sizes per group with running totals, up to the rows asked, reusing the rows', () => {
    const grid = gridOf('0.1')!;
    const out: GroupRow[] = [];
    const bids = [fakeLevel('100.3', '1'), fakeLevel('100.1', '2'), fakeLevel('99.9', '0.5'), fakeLevel('98.7', '4')];
    expect(fillGroups(bids, 0, grid, 10, out, 2)).toBe(2);
    expect(out.slice(0, 2).map((r) => [r.price, r.s, r.total])).toEqual([['100.0', 3, 3], ['99.0', 0.5, 3.5]]);
    const first = out[0];
    expect(fillGroups(bids, 0, grid, 1, out, 10)).toBe(4);
    expect(out[0]).toBe(first);
    expect(out.slice(0, 4).map((r) => r.price)).toEqual(['100.3', '100.1', '99.9', '98.7']);
  });
});
