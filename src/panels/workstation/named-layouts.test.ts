import { describe, expect, it } from 'vitest';
import type { NamedLayouts, StoredLayout } from '../../api/contracts/settings';
import { layoutNameError, layoutNames, normalizeLayoutName, withNamedLayout, withoutNamedLayout } from './named-layouts';

const layout = (savedAt: number): StoredLayout => ({ version: 1, savedAt, model: {} });

describe('named layouts', () => {
  it('normalises names so near-duplicates are one layout', () => {
    expect(normalizeLayoutName('  Scalping   BTC ')).toBe('Scalping BTC');
    const named = withNamedLayout({ 'Scalping BTC': layout(1) }, ' Scalping  BTC', layout(2));
    expect(named).toEqual({ 'Scalping BTC': layout(2) });
  });

  it('explains names that cannot be saved', () => {
    expect(layoutNameError({}, '   ')).toBe('Enter a name');
    expect(layoutNameError({}, 'x'.repeat(41))).toBe('Use at most 40 characters');
    expect(layoutNameError({}, 'Swing')).toBeNull();
    const full: NamedLayouts = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`L${i}`, layout(i)]));
    expect(layoutNameError(full, 'New one')).toBe('You can keep 20 layouts; delete one first');
    expect(layoutNameError(full, 'L3')).toBeNull(); // overwriting is always possible
  });

  it('deletes without touching the others, and lists names naturally', () => {
    const named = { b: layout(1), 'Layout 10': layout(2), 'layout 9': layout(3), A: layout(4) };
    expect(layoutNames(withoutNamedLayout(named, 'b'))).toEqual(['A', 'layout 9', 'Layout 10']);
    expect(named).toHaveProperty('b');
  });
});
