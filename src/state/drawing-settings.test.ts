import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addFibSelection,
  bindDrawingSettingsToUser,
  defaultDrawingSettings,
  drawingSettings,
  drawingSettingsStorageName,
  fibSelectionsFor,
  flushDrawingSettings,
  migrateDrawingSettings,
  removeFibSelection,
  setDrawingColor,
  setDrawingMode,
  updateFibSelection,
} from './drawing-settings';
import { configureStateStorage, storageNameFor } from './storage';
import { MemoryStorage } from './test-storage';

const rect = { startTime: 1_700_000_000, startPrice: 30_000, endTime: 1_700_003_600, endPrice: 31_000 };
const reset = () => Object.assign(drawingSettings, defaultDrawingSettings());

describe('drawing settings defaults', () => {
  it('select mode, blue, no retracements', () => {
    expect(defaultDrawingSettings()).toEqual({ mode: 'default', color: 'blue', fibSelections: [] });
  });
});

describe('migrateDrawingSettings', () => {
  it('from v1: adds the fib defaults to fib entries, in the colour they were drawn with', () => {
    const s = migrateDrawingSettings({ mode: 'line', color: 'red', fibSelections: [{ id: 'f1', exchange: 'binance', symbol: 'BTCUSDT', rect }] }, 1);
    expect(s).toEqual({
      mode: 'line',
      color: 'red',
      fibSelections: [{
        id: 'f1', exchange: 'binance', symbol: 'BTCUSDT', rect, fibColor: 'red',
        fibAmountOfPositiveLines: '2', fibIncrement: '1', fibMainValue: '0.618', fibCustomValue: '',
      }],
    });
  });

  it('from v1: keeps values an entry already had', () => {
    const s = migrateDrawingSettings({ fibSelections: [{ id: 'f1', exchange: 'okx', symbol: 'BTCUSDT', rect, fibMainValue: '0.5' }] }, 1);
    expect(s.fibSelections[0]).toMatchObject({ fibMainValue: '0.5', fibIncrement: '1', fibColor: 'blue' });
  });

  it('from v2: drops fib positions lacking a rectangle', () => {
    const fib = { exchange: 'bybit', symbol: 'ETHUSDT', fibColor: 'green', fibAmountOfPositiveLines: '3', fibIncrement: '1', fibMainValue: '0.618', fibCustomValue: '' };
    const s = migrateDrawingSettings({ mode: 'fib-retracement', color: 'green', fibSelections: [{ ...fib, id: 'a', rect }, { ...fib, id: 'b', rect: null }, { ...fib, id: 'c' }] }, 2);
    expect(s.fibSelections.map((f) => f.id)).toEqual(['a']);
    expect(s.fibSelections[0]).toEqual({ ...fib, id: 'a', rect });
    expect(s.mode).toBe('fib-retracement');
  });

  it('from v1: entries without a rectangle are dropped too (v1 → v2 → v3)', () => {
    const s = migrateDrawingSettings({ fibSelections: [{ id: 'x', exchange: 'binance', symbol: 'BTCUSDT' }] }, 1);
    expect(s.fibSelections).toEqual([]);
  });

  it('v3: repairs an invalid mode or colour and drops malformed entries', () => {
    const s = migrateDrawingSettings({ mode: 'laser', color: 'purple', fibSelections: [{ id: 'x', exchange: 'ftx', symbol: 'A', rect }, 'junk'] }, 3);
    expect(s).toEqual(defaultDrawingSettings());
  });

  it('refuses unknown versions', () => {
    expect(() => migrateDrawingSettings({}, 4)).toThrow();
  });
});

describe('drawing actions', () => {
  beforeEach(reset);

  it('set mode and colour', () => {
    setDrawingMode('rectangle');
    setDrawingColor('yellow');
    expect(drawingSettings).toMatchObject({ mode: 'rectangle', color: 'yellow' });
  });

  it('a new retracement takes the fib defaults and the current colour', () => {
    setDrawingColor('green');
    const fib = addFibSelection({ exchange: 'binance', symbol: 'BTCUSDT', rect });
    expect(fib).toMatchObject({ fibColor: 'green', fibAmountOfPositiveLines: '2', fibIncrement: '1', fibMainValue: '0.618', fibCustomValue: '' });
    expect(fib.id).not.toBe('');
    expect(addFibSelection({ exchange: 'binance', symbol: 'BTCUSDT', rect }).id).not.toBe(fib.id);
  });

  it('update and remove by id; lists per chart', () => {
    const a = addFibSelection({ exchange: 'binance', symbol: 'BTCUSDT', rect, id: 'a' });
    addFibSelection({ exchange: 'bybit', symbol: 'BTCUSDT', rect, id: 'b' });
    expect(updateFibSelection(a.id, { fibCustomValue: '0.786', rect: { ...rect, endPrice: 32_000 } })).toBe(true);
    expect(drawingSettings.fibSelections[0]).toMatchObject({ fibCustomValue: '0.786', rect: { endPrice: 32_000 } });
    expect(fibSelectionsFor(drawingSettings.fibSelections, 'bybit', 'BTCUSDT').map((f) => f.id)).toEqual(['b']);
    expect(removeFibSelection('a')).toBe(true);
    expect(removeFibSelection('a')).toBe(false);
    expect(updateFibSelection('zzz', { fibIncrement: '2' })).toBe(false);
    expect(drawingSettings.fibSelections.map((f) => f.id)).toEqual(['b']);
  });
});

describe('drawing settings persistence', () => {
  afterAll(() => configureStateStorage(undefined));

  it('is per user under drawing_settings_<sha256>, version 3, migrating old data', async () => {
    const storage = new MemoryStorage();
    configureStateStorage(storage);
    const key = await storageNameFor('drawing_settings', 'u1');
    storage.setItem(key, JSON.stringify({ version: 1, state: { mode: 'line', color: 'red', fibSelections: [{ id: 'f', exchange: 'binance', symbol: 'BTCUSDT', rect }] } }));
    await bindDrawingSettingsToUser('u1');
    expect(drawingSettingsStorageName()).toBe(key);
    expect(drawingSettings.fibSelections[0].fibMainValue).toBe('0.618');
    expect(storage.json(key)).toMatchObject({ version: 3, state: { color: 'red' } });

    setDrawingColor('yellow');
    flushDrawingSettings();
    await bindDrawingSettingsToUser(null);
    expect(drawingSettingsStorageName()).toBe('drawing_settings');
    expect(drawingSettings.color).toBe('blue');
    expect(storage.json(key)).toMatchObject({ version: 3, state: { color: 'yellow' } });
  });
});
