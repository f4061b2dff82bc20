import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureStateStorage, storageNameFor } from './storage';
import { MemoryStorage } from './test-storage';
import {
  bindUserSettingsToUser,
  defaultUserSettings,
  flushUserSettings,
  receiveExternalUserSettings,
  setExchange,
  toggleFavoriteInterval,
  updateUserSettings,
  userSettings,
  userSettingsStorageName,
} from './user-settings';

let storage: MemoryStorage;
const userKey = (id: string) => storageNameFor('user_settings', id);
const envelope = (state: object, version: number) => JSON.stringify({ state, version });

beforeEach(() => {
  storage = new MemoryStorage();
  configureStateStorage(storage);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
afterAll(() => configureStateStorage(undefined));

describe('bindUserSettingsToUser', () => {
  it('loads a v1 object from the hashed per-user name, migrates it and writes it back as version 6', async () => {
    const key = await userKey('user-1');
    storage.setItem(key, envelope({ tradeIntervals: ['1h'], maxRisk: 2, interval: '1h' }, 1));
    await bindUserSettingsToUser('user-1');
    expect(userSettingsStorageName()).toBe(key);
    expect(userSettings.maxRisk).toBe(2);
    expect(userSettings.favoriteIntervals['1h']).toBe(true);
    expect(userSettings.favoriteIntervals['1m']).toBe(false);
    const saved = storage.json(key) as { state: Record<string, unknown>; version: number };
    expect(saved.version).toBe(6);
    expect(saved.state).toEqual({ ...userSettings });
    expect(saved.state).not.toHaveProperty('tradeIntervals');
  });

  it('saves changes under the user’s name, coalescing a burst into one write', async () => {
    await bindUserSettingsToUser('user-2');
    const key = await userKey('user-2');
    const writesAfterBind = storage.writes;
    setExchange('bitmex');
    toggleFavoriteInterval('4h');
    updateUserSettings({ maxRisk: 0.5 });
    await vi.advanceTimersByTimeAsync(50);
    expect(storage.writes).toBe(writesAfterBind);
    await vi.advanceTimersByTimeAsync(500);
    expect(storage.writes).toBe(writesAfterBind + 1);
    expect(storage.json(key)).toMatchObject({
      version: 6,
      state: { exchangeName: 'bitmex', tradingPair: 'XBTUSD', baseAsset: 'XBT', maxRisk: 0.5, favoriteIntervals: { '4h': true } },
    });
  });

  it('after logout uses the generic name, without the user’s settings; signing back in restores them', async () => {
    await bindUserSettingsToUser('user-3');
    updateUserSettings({ maxRisk: 4 });
    await bindUserSettingsToUser(null); // flushes the pending change to the user's name first
    expect(userSettingsStorageName()).toBe('user_settings');
    expect(userSettings.maxRisk).toBe(1.5);
    updateUserSettings({ maskBalance: true });
    flushUserSettings();
    expect(storage.json('user_settings')).toMatchObject({ version: 6, state: { maskBalance: true, maxRisk: 1.5 } });

    await bindUserSettingsToUser('user-3');
    expect(userSettings.maxRisk).toBe(4);
    expect(userSettings.maskBalance).toBe(false);
  });

  it('two users on one browser never see each other’s settings', async () => {
    await bindUserSettingsToUser('alice');
    setExchange('okx');
    await bindUserSettingsToUser('bob');
    expect(userSettings.exchangeName).toBe('binance');
    await bindUserSettingsToUser('alice');
    expect(userSettings.exchangeName).toBe('okx');
    expect(storage.items.size).toBe(2);
  });

  it('the latest bind wins when sign-out and sign-in overlap', async () => {
    storage.setItem(await userKey('late'), envelope({ ...defaultUserSettings(), maxRisk: 9 }, 6));
    const first = bindUserSettingsToUser('early');
    const second = bindUserSettingsToUser('late');
    await Promise.all([first, second]);
    expect(userSettingsStorageName()).toBe(await userKey('late'));
    expect(userSettings.maxRisk).toBe(9);
  });

  it.each([
    ['unparsable JSON', '{"state":'],
    ['no envelope', '"hello"'],
    ['state not an object', envelope([] as unknown as object, 6).replace('[]', '"x"')],
    ['missing version', JSON.stringify({ state: { maxRisk: 3 } })],
  ])('starts from defaults on %s, never crashing', async (_case, raw) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    storage.setItem(await userKey('corrupt'), raw);
    await bindUserSettingsToUser('corrupt');
    expect({ ...userSettings }).toEqual(defaultUserSettings());
    expect(warn).toHaveBeenCalled();
  });

  it('starts from defaults with a warning for a future version', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    storage.setItem(await userKey('future'), envelope({ ...defaultUserSettings(), maxRisk: 7 }, 7));
    await bindUserSettingsToUser('future');
    expect(userSettings.maxRisk).toBe(1.5);
    expect(warn.mock.calls.flat().join(' ')).toMatch(/version 7/);
  });

  it('keeps working in memory when storage is unavailable or full', async () => {
    configureStateStorage(null);
    await bindUserSettingsToUser('nostorage');
    setExchange('bybit');
    expect(userSettings.category).toBe('linear');

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    configureStateStorage(full);
    await bindUserSettingsToUser('full');
    setExchange('okx');
    await vi.advanceTimersByTimeAsync(500);
    expect(userSettings.exchangeName).toBe('okx');
    expect(warn).toHaveBeenCalled();
  });

  it('adopts a change another tab wrote to the same name, without writing it back', async () => {
    await bindUserSettingsToUser('tabs');
    const key = await userKey('tabs');
    const other = envelope({ ...defaultUserSettings(), alertSound: 'alert-4' }, 6);
    storage.setItem(key, other);
    const writes = storage.writes;
    receiveExternalUserSettings(key, other);
    expect(userSettings.alertSound).toBe('alert-4');
    await vi.advanceTimersByTimeAsync(500);
    expect(storage.writes).toBe(writes);

    receiveExternalUserSettings('user_settings_someone_else', envelope({ ...defaultUserSettings(), alertSound: 'alert-2' }, 6));
    expect(userSettings.alertSound).toBe('alert-4');
  });
});
