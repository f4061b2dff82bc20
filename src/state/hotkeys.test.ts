import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bindHotkeysToUser,
  comboOf,
  defaultHotkeys,
  flushHotkeys,
  hotkeyActionFor,
  hotkeys,
  isCombo,
  resetHotkeys,
  restoreHotkeys,
  setHotkey,
} from './hotkeys';
import { configureStateStorage, storageNameFor } from './storage';
import { MemoryStorage } from './test-storage';

const key = (code: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) => ({
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('hotkey combinations', () => {
  it('names a keydown by its physical key with the modifiers in a fixed order', () => {
    expect(comboOf(key('KeyB', { shiftKey: true }))).toBe('Shift+B');
    expect(comboOf(key('KeyH', { altKey: true, ctrlKey: true }))).toBe('Ctrl+Alt+H');
    expect(comboOf(key('BracketRight'))).toBe(']');
    expect(comboOf(key('Digit4', { altKey: true }))).toBe('Alt+4');
    expect(comboOf(key('F5'))).toBe('F5');
    // A modifier alone is not a combination yet.
    expect(comboOf(key('ShiftLeft', { shiftKey: true }))).toBeNull();
    expect(comboOf(key('AudioVolumeUp'))).toBeNull();
  });

  it('accepts only well-formed stored combinations', () => {
    expect(isCombo('Shift+B')).toBe(true);
    expect(isCombo('Ctrl+Alt+Shift+Meta+F12')).toBe(true);
    expect(isCombo('Shift+Ctrl+B')).toBe(false);
    expect(isCombo('Shift+Shift+B')).toBe(false);
    expect(isCombo('Hyper+B')).toBe(false);
    expect(isCombo('b')).toBe(false);
    expect(isCombo(42)).toBe(false);
  });

  it('finds the action of a keydown with the defaults', () => {
    const keys = defaultHotkeys();
    expect(hotkeyActionFor(keys, key('KeyB', { shiftKey: true }))).toBe('buyMarket');
    expect(hotkeyActionFor(keys, key('KeyB'))).toBeNull();
    expect(hotkeyActionFor(keys, key('BracketLeft'))).toBe('previousInterval');
    expect(hotkeyActionFor(keys, key('KeyH', { altKey: true }))).toBe('toolLine');
  });
});

describe('assigning hotkeys', () => {
  beforeEach(resetHotkeys);

  it('refuses a combination another action has, or a reserved one, and keeps the old one', () => {
    expect(setHotkey('sellMarket', 'Shift+B')).toBe('Shift+B is already “Buy: what Order entry would send (its type, bracket and size)”');
    expect(hotkeys.sellMarket).toBe('Shift+S');
    expect(setHotkey('cancelAll', 'Alt+A')).toMatch(/^Alt\+A is reserved: add an alert/);
    expect(setHotkey('cancelAll', 'Shift+/')).toMatch(/reserved: show the keyboard shortcuts/);
    expect(hotkeys.cancelAll).toBe('Shift+C');
  });

  it('assigns a free combination and clears one with null', () => {
    expect(setHotkey('cancelAll', 'Ctrl+Shift+K')).toBeNull();
    expect(hotkeyActionFor(hotkeys, key('KeyK', { ctrlKey: true, shiftKey: true }))).toBe('cancelAll');
    expect(setHotkey('closePosition', null)).toBeNull();
    expect(hotkeyActionFor(hotkeys, key('KeyX', { shiftKey: true }))).toBeNull();
  });

  it('restores stored maps defensively: bad entries take the default, duplicates keep the first, null stays unassigned', () => {
    const restored = restoreHotkeys({ buyMarket: 'Ctrl+B', sellMarket: 'Ctrl+B', cancelAll: 'nonsense', closePosition: null, toolFib: 'Alt+A', extra: 'Shift+Q' });
    expect(restored.buyMarket).toBe('Ctrl+B');
    expect(restored.sellMarket).toBeNull();
    expect(restored.cancelAll).toBe('Shift+C');
    expect(restored.closePosition).toBeNull();
    expect(restored.toolFib).toBe('Alt+F');
    expect(Object.keys(restored)).not.toContain('extra');
  });
});

describe('hotkeys persistence', () => {
  afterAll(() => configureStateStorage(undefined));

  it('is per user under hotkeys_<sha256>, version 1', async () => {
    const storage = new MemoryStorage();
    configureStateStorage(storage);
    const name = await storageNameFor('hotkeys', 'u1');
    storage.setItem(name, JSON.stringify({ version: 1, state: { ...defaultHotkeys(), buyMarket: 'Ctrl+1' } }));
    await bindHotkeysToUser('u1');
    expect(hotkeys.buyMarket).toBe('Ctrl+1');
    setHotkey('sellMarket', 'Ctrl+2');
    flushHotkeys();
    expect(storage.json(name)).toMatchObject({ version: 1, state: { buyMarket: 'Ctrl+1', sellMarket: 'Ctrl+2' } });
    await bindHotkeysToUser(null);
    expect(hotkeys.buyMarket).toBe('Shift+B');
  });
});
