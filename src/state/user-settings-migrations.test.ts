import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultUserSettings, favoriteIntervalsFrom, migrateUserSettings, type UserSettings } from './user-settings';

/** What a v1 user had stored: BitMEX-era state with the interval buttons as a list. */
const V1 = {
  apiKeyId: 'key-1',
  apiKeyPasswords: { 'key-1': 'hunter2' },
  tradeMode: true,
  tradeIntervals: ['1m', '1h', '1d', 'bogus'],
  tradingPair: 'XBTUSD',
  tickSize: 0.5,
  interval: '1h',
  confirmCancelOrder: false,
  confirmCancelOrderChartLine: true,
  confirmClosePosition: true,
  confirmClosePositionChartLine: false,
  balanceType: 'available',
  balanceCurrency: 'XBT',
  maxRisk: 2.5,
  maskBalance: true,
  hideOtherSymbolsOrders: true,
  hideOtherSymbolsPositions: false,
};

/** A v3 user on bybit (v3 lacked orderType, allowPositionClose and alertSound). */
const V3 = {
  ...defaultUserSettings(),
  exchangeName: 'bybit',
  tradingPair: 'ETHUSDT',
  baseAsset: 'ETH',
  category: 'linear',
  useTestnet: true,
  precision: 2,
  tickSize: 0.01,
  quantityPrecision: 2,
  stepSize: 0.01,
  favoriteIntervals: favoriteIntervalsFrom(['15m', '4h']),
  maxRisk: 0.75,
} as Record<string, unknown>;
delete V3.orderType;
delete V3.allowPositionClose;
delete V3.alertSound;

describe('migrateUserSettings', () => {
  afterEach(() => vi.restoreAllMocks());

  it('from v1: converts the trade interval list to the favourite map and keeps the user’s choices', () => {
    const s = migrateUserSettings(V1, 1);
    expect(s.favoriteIntervals).toEqual(favoriteIntervalsFrom(['1m', '1h', '1d']));
    expect(s.favoriteIntervals['5m']).toBe(false);
    expect(s).not.toHaveProperty('tradeIntervals');
    expect(s).toMatchObject({
      apiKeyId: 'key-1',
      apiKeyPasswords: { 'key-1': 'hunter2' },
      tradeMode: true,
      tickSize: 0.5,
      interval: '1h',
      confirmCancelOrder: false,
      confirmClosePositionChartLine: false,
      balanceType: 'available',
      balanceCurrency: 'XBT',
      maxRisk: 2.5,
      maskBalance: true,
      hideOtherSymbolsOrders: true,
    });
  });

  it('from v1: v2’s defaults fill testnet, exchange, precision, leverage, assets, quantities, avg-in, category, contract value', () => {
    const s = migrateUserSettings(V1, 1);
    expect(s).toMatchObject({
      useTestnet: false,
      exchangeName: 'binance',
      precision: 2,
      quantityPrecision: 2,
      stepSize: 0.001,
      minQty: 0,
      maxQty: 0,
      leverageMode: 'ISOLATED',
      quoteAsset: 'USDT',
      settleCurrency: null,
      avgInOrderType: 1,
      category: null,
      contractValue: 0,
      orderType: 'bracket-order',
      allowPositionClose: false,
      alertSound: 'alert-1',
    });
  });

  it('from v1: a pair stored without an exchange is reset with the exchange (no XBTUSD on binance)', () => {
    const s = migrateUserSettings(V1, 1);
    expect(s.exchangeName).toBe('binance');
    expect(s.tradingPair).toBe('BTCUSDT');
    expect(s.baseAsset).toBe('BTC');
  });

  it('from v1 without an interval list: the default favourites', () => {
    const { tradeIntervals: _omit, ...withoutList } = V1;
    const s = migrateUserSettings(withoutList, 1);
    expect(s.favoriteIntervals).toEqual(favoriteIntervalsFrom(['1m', '3m', '5m', '15m', '30m']));
  });

  it('from v2 with a known exchange: keeps pair and assets, fills only what is missing', () => {
    const s = migrateUserSettings({ favoriteIntervals: favoriteIntervalsFrom(['1w']), exchangeName: 'bitmex', tradingPair: 'ETHUSD', baseAsset: 'ETH', precision: 2 }, 2);
    expect(s).toMatchObject({ exchangeName: 'bitmex', tradingPair: 'ETHUSD', baseAsset: 'ETH', category: null, leverageMode: 'ISOLATED' });
    expect(s.favoriteIntervals['1w']).toBe(true);
  });

  it('from v3: adds orderType, allowPositionClose and alertSound and changes nothing else', () => {
    const s = migrateUserSettings(V3, 3);
    const expected: UserSettings = { ...(V3 as UserSettings), orderType: 'bracket-order', allowPositionClose: false, alertSound: 'alert-1' };
    expect(s).toEqual(expected);
  });

  it('from v5: adds alertSound alert-1 and keeps a non-default order type and position-close choice', () => {
    const v5 = { ...V3, orderType: 'limit', allowPositionClose: true };
    const s = migrateUserSettings(v5, 5);
    expect(s.alertSound).toBe('alert-1');
    expect(s.orderType).toBe('limit');
    expect(s.allowPositionClose).toBe(true);
    expect(s.tradingPair).toBe('ETHUSDT');
  });

  it('v6 is loaded as is; invalid fields are repaired one by one, unknown keys dropped', () => {
    const stored = { ...defaultUserSettings(), alertSound: 'alert-3', maxRisk: 'lots', tickSize: -1, exchangeName: 'ftx', interval: '7m', extra: 1 };
    const s = migrateUserSettings(stored, 6);
    expect(s.alertSound).toBe('alert-3');
    expect(s.maxRisk).toBe(1.5);
    expect(s.tickSize).toBe(0.1);
    expect(s.exchangeName).toBe('binance');
    expect(s.interval).toBe('5m');
    expect(s).not.toHaveProperty('extra');
  });

  it('keeps the case of 1M (month) distinct from 1m (minute)', () => {
    const s = migrateUserSettings({ ...V1, tradeIntervals: ['1M'] }, 1);
    expect(s.favoriteIntervals['1M']).toBe(true);
    expect(s.favoriteIntervals['1m']).toBe(false);
  });

  it('refuses versions it does not know', () => {
    expect(() => migrateUserSettings({}, 0)).toThrow(/version 0/);
    expect(() => migrateUserSettings({}, 7)).toThrow(/version 7/);
  });
});
