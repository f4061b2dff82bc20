import { beforeEach, describe, expect, it } from 'vitest';
import { EXCHANGE_IDS } from '../api/contracts/common';
import {
  decimalsOf,
  defaultUserSettings,
  favoriteIntervalList,
  rememberApiKeyPassword,
  setChartInterval,
  setExchange,
  setTradingPair,
  toggleFavoriteInterval,
  updateUserSettings,
  userSettings,
} from './user-settings';

const reset = () => Object.assign(userSettings, defaultUserSettings());

describe('user settings defaults', () => {
  it('are exactly SPEC §3', () => {
    expect(defaultUserSettings()).toEqual({
      apiKeyId: null,
      apiKeyPasswords: {},
      useTestnet: false,
      exchangeName: 'binance',
      tradeMode: false,
      favoriteIntervals: {
        '1m': true, '3m': true, '5m': true, '15m': true, '30m': true,
        '1h': false, '2h': false, '4h': false, '6h': false, '8h': false, '12h': false,
        '1d': false, '3d': false, '1w': false, '1M': false,
      },
      tradingPair: 'BTCUSDT',
      precision: 2,
      tickSize: 0.1,
      quantityPrecision: 2,
      stepSize: 0.001,
      leverageMode: 'ISOLATED',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      settleCurrency: null,
      interval: '5m',
      confirmCancelOrder: true,
      confirmCancelOrderChartLine: true,
      confirmClosePosition: true,
      confirmClosePositionChartLine: true,
      balanceType: 'total',
      balanceCurrency: 'USDT',
      minQty: 0,
      maxQty: 0,
      maxRisk: 1.5,
      maskBalance: false,
      hideOtherSymbolsOrders: false,
      hideOtherSymbolsPositions: false,
      avgInOrderType: 1,
      category: null,
      contractValue: 0,
      orderType: 'bracket-order',
      allowPositionClose: false,
      alertSound: 'alert-1',
    });
  });

  it('are a fresh object each time (no shared nested maps between stores)', () => {
    const a = defaultUserSettings();
    a.favoriteIntervals['1h'] = true;
    expect(defaultUserSettings().favoriteIntervals['1h']).toBe(false);
  });
});

describe('setExchange', () => {
  beforeEach(reset);

  it.each([
    ['bitmex', 'XBTUSD', 'XBT', null],
    ['binance', 'BTCUSDT', 'BTC', null],
    ['bybit', 'BTCUSDT', 'BTC', 'linear'],
    ['okx', 'BTCUSDT', 'BTC', 'linear'],
  ] as const)('to %s resets the pair to %s, base asset %s, category %s', (exchange, pair, base, category) => {
    // Start from another exchange with a non-default pair so every field must change.
    const from = EXCHANGE_IDS.find((e) => e !== exchange) ?? 'binance';
    setExchange(from);
    Object.assign(userSettings, { tradingPair: 'SOLUSDT', baseAsset: 'SOL', category: 'inverse' });
    setExchange(exchange);
    expect(userSettings).toMatchObject({ exchangeName: exchange, tradingPair: pair, baseAsset: base, category });
  });

  it('leaves everything else alone', () => {
    updateUserSettings({ maxRisk: 3, interval: '1h', quoteAsset: 'USDT' });
    setExchange('bitmex');
    expect(userSettings).toMatchObject({ maxRisk: 3, interval: '1h', quoteAsset: 'USDT' });
  });

  it('re-selecting the current exchange keeps the chosen pair', () => {
    setExchange('bybit');
    setTradingPair('ETHUSDT', { baseAsset: 'ETH' });
    setExchange('bybit');
    expect(userSettings).toMatchObject({ tradingPair: 'ETHUSDT', baseAsset: 'ETH', category: 'linear' });
  });
});

describe('setTradingPair', () => {
  beforeEach(reset);

  it('takes tick size, precisions, limits, contract value, category and assets from the instrument', () => {
    setExchange('bitmex');
    setTradingPair('ETHUSD', {
      tickSize: 0.05, stepSize: 1, minQty: 1, maxQty: 10_000_000, contractValue: 0.000001,
      category: 'inverse', baseAsset: 'ETH', quoteAsset: 'USD', settleCurrency: 'XBt',
    });
    expect(userSettings).toMatchObject({
      tradingPair: 'ETHUSD', tickSize: 0.05, precision: 2, stepSize: 1, quantityPrecision: 0,
      minQty: 1, maxQty: 10_000_000, contractValue: 0.000001, category: 'inverse',
      baseAsset: 'ETH', quoteAsset: 'USD', settleCurrency: 'XBt',
    });
  });

  it('prefers explicit precisions and ignores invalid numbers', () => {
    setTradingPair('DOGEUSDT', { tickSize: 0.00001, precision: 6, stepSize: -1, minQty: Number.NaN });
    expect(userSettings).toMatchObject({ tickSize: 0.00001, precision: 6, stepSize: 0.001, quantityPrecision: 2, minQty: 0 });
  });

  it('without an instrument changes only the symbol', () => {
    setTradingPair('ETHUSDT');
    expect(userSettings).toEqual({ ...defaultUserSettings(), tradingPair: 'ETHUSDT' });
  });
});

describe('decimalsOf', () => {
  it.each([[0.1, 1], [0.25, 2], [0.001, 3], [1, 0], [10, 0], [1e-8, 8], [0.5, 1], [0.0001, 4]])('%s → %s', (step, decimals) => {
    expect(decimalsOf(step)).toBe(decimals);
  });
});

describe('favourite intervals', () => {
  beforeEach(reset);

  it('toggle per interval', () => {
    toggleFavoriteInterval('1h');
    toggleFavoriteInterval('5m');
    expect(favoriteIntervalList(userSettings.favoriteIntervals)).toEqual(['1m', '3m', '15m', '30m', '1h']);
    toggleFavoriteInterval('1h');
    expect(userSettings.favoriteIntervals['1h']).toBe(false);
  });

  it('are listed in SPEC §9 order whatever order they were toggled in', () => {
    toggleFavoriteInterval('1M');
    toggleFavoriteInterval('1d');
    expect(favoriteIntervalList(userSettings.favoriteIntervals).slice(-2)).toEqual(['1d', '1M']);
  });

  it('the chart interval is independent of the favourites', () => {
    setChartInterval('4h');
    expect(userSettings.interval).toBe('4h');
    expect(userSettings.favoriteIntervals['4h']).toBe(false);
  });
});

describe('remembered API key passwords', () => {
  beforeEach(reset);

  it('are kept per key id and forgotten with null', () => {
    rememberApiKeyPassword('a', 'pw-a');
    rememberApiKeyPassword('b', 'pw-b');
    rememberApiKeyPassword('a', null);
    expect(userSettings.apiKeyPasswords).toEqual({ b: 'pw-b' });
  });
});
