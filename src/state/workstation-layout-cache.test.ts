import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredLayout } from '../api/contracts/settings';
import { configureStateStorage } from './storage';
import { MemoryStorage } from './test-storage';
import {
  WORKSTATION_LAYOUT_CACHE_NAME,
  chooseLayoutSource,
  readLocalLayout,
  workstationLayoutCacheName,
  writeLocalLayout,
} from './workstation-layout-cache';

const layout = (savedAt: number): StoredLayout => ({ version: 1, savedAt, model: { layout: { type: 'row', children: [] } } });

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  configureStateStorage(storage);
});
afterEach(() => configureStateStorage(undefined));

describe('local layout copy', () => {
  it('is stored per user under a hashed name, in the versioned envelope', async () => {
    const name = await workstationLayoutCacheName('user-1');
    expect(name).toMatch(new RegExp(`^${WORKSTATION_LAYOUT_CACHE_NAME}_[0-9a-f]{64}$`));
    expect(name).not.toContain('user-1');
    expect(writeLocalLayout(name, { layout: layout(5), synced: false })).toBe(true);
    expect(storage.json(name)).toEqual({ state: { layout: layout(5), synced: false }, version: 1 });
    expect(readLocalLayout(name)).toEqual({ layout: layout(5), synced: false });
  });

  it('reads missing, corrupt, foreign-version or invalid data as none', () => {
    expect(readLocalLayout('x')).toBeNull();
    storage.setItem('x', '{nope');
    expect(readLocalLayout('x')).toBeNull();
    storage.setItem('x', JSON.stringify({ state: { layout: layout(1), synced: true }, version: 9 }));
    expect(readLocalLayout('x')).toBeNull();
    storage.setItem('x', JSON.stringify({ state: { layout: { version: 1 }, synced: true }, version: 1 }));
    expect(readLocalLayout('x')).toBeNull();
  });

  it('survives a storage that refuses writes', () => {
    configureStateStorage({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    });
    expect(writeLocalLayout('x', { layout: layout(1), synced: true })).toBe(false);
  });
});

describe('chooseLayoutSource', () => {
  it('opens an unconfirmed local change newer than the server copy, and pushes it', () => {
    expect(chooseLayoutSource(layout(10), { layout: layout(20), synced: false })).toEqual({ layout: layout(20), push: true });
    expect(chooseLayoutSource(null, { layout: layout(20), synced: false })).toEqual({ layout: layout(20), push: true });
  });

  it('prefers the server copy otherwise (it may come from another device)', () => {
    expect(chooseLayoutSource(layout(10), { layout: layout(20), synced: true })).toEqual({ layout: layout(10), push: false });
    expect(chooseLayoutSource(layout(30), { layout: layout(20), synced: false })).toEqual({ layout: layout(30), push: false });
    expect(chooseLayoutSource(layout(30), null)).toEqual({ layout: layout(30), push: false });
  });

  it('falls back to the local copy, then to nothing (the default layout)', () => {
    expect(chooseLayoutSource(null, { layout: layout(20), synced: true })).toEqual({ layout: layout(20), push: false });
    expect(chooseLayoutSource(null, null)).toEqual({ layout: null, push: false });
  });
});
