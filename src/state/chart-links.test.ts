import { beforeEach, describe, expect, it } from 'vitest';
import {
  activeChart,
  addChartIndicator,
  chartLinks,
  linkedChartIds,
  parseChartConfig,
  registerChart,
  removeChartIndicator,
  replaceCharts,
  sameChartConfig,
  setActiveChart,
  setChartLink,
  setChartPair,
  setChartTimeframe,
  showPairInActiveChart,
  switchChartExchange,
  unregisterChart,
  updateChartIndicator,
  type ChartConfig,
} from './chart-links';
import type { ChartIndicator } from './chart-indicators';

const chart = (over: Partial<ChartConfig> = {}): ChartConfig => ({ exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null, ...over });

beforeEach(() => replaceCharts({}));

describe('parseChartConfig', () => {
  const fallback = chart();

  it('keeps a valid config', () => {
    const stored = { exchange: 'bybit', symbol: 'ETHUSDT', interval: '1h', link: 'red' };
    expect(parseChartConfig(stored, fallback)).toEqual(stored);
  });

  it('repairs bad fields one by one and keeps the good ones', () => {
    expect(parseChartConfig({ exchange: 'okx', symbol: 'ETHUSDT', interval: '7m', link: 'pink' }, fallback)).toEqual({
      exchange: 'okx',
      symbol: 'ETHUSDT',
      interval: '5m',
      link: null,
    });
  });

  it('drops the symbol with an unreadable exchange (a symbol belongs to its exchange)', () => {
    expect(parseChartConfig({ exchange: 'ftx', symbol: 'FTTUSD', interval: '1h' }, fallback)).toEqual({
      exchange: 'binance',
      symbol: 'BTCUSDT',
      interval: '1h',
      link: null,
    });
  });

  it('keeps readable indicators, drops unreadable ones, and adds no key to a chart saved without any', () => {
    const sma: ChartIndicator = { id: 's', kind: 'sma', period: 20, source: 'close', color: '#f5c518' };
    const stored = { exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null, indicators: [sma, { id: 'x', kind: 'sma', period: -3 }] };
    expect(parseChartConfig(stored, fallback)).toEqual({ ...stored, indicators: [sma] });
    expect('indicators' in parseChartConfig({ exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null }, fallback)).toBe(false);
  });

  it('reads garbage as the fallback', () => {
    expect(parseChartConfig('nope', fallback)).toEqual(fallback);
    expect(parseChartConfig({ symbol: 'btc usdt' }, fallback)).toEqual(fallback);
  });
});

describe('link groups', () => {
  beforeEach(() => {
    replaceCharts({
      a: chart({ link: 'red' }),
      b: chart({ link: 'red', interval: '1h' }),
      c: chart({ link: 'blue', symbol: 'ETHUSDT' }),
      d: chart({ symbol: 'SOLUSDT' }),
    });
  });

  it('finds the members of a colour group', () => {
    expect(linkedChartIds(chartLinks.charts, 'a').sort()).toEqual(['a', 'b']);
    expect(linkedChartIds(chartLinks.charts, 'c')).toEqual(['c']);
    expect(linkedChartIds(chartLinks.charts, 'd')).toEqual(['d']);
    expect(linkedChartIds(chartLinks.charts, 'missing')).toEqual([]);
  });

  it('changing the pair of a linked chart changes the whole group, and only it', () => {
    expect(setChartPair('b', 'binance', 'ETHUSDT').sort()).toEqual(['a', 'b']);
    expect(chartLinks.charts.a.symbol).toBe('ETHUSDT');
    expect(chartLinks.charts.b.symbol).toBe('ETHUSDT');
    expect(chartLinks.charts.c.symbol).toBe('ETHUSDT'); // it already was; another group
    expect(chartLinks.charts.d.symbol).toBe('SOLUSDT');
  });

  it('an unlinked chart changes alone', () => {
    expect(setChartPair('d', 'binance', 'XRPUSDT')).toEqual(['d']);
    expect(chartLinks.charts.a.symbol).toBe('BTCUSDT');
  });

  it('keeps intervals per chart inside a group', () => {
    setChartTimeframe('a', '15m');
    expect(chartLinks.charts.a.interval).toBe('15m');
    expect(chartLinks.charts.b.interval).toBe('1h');
  });

  it('switching exchange moves the group to that exchange default pair (SPEC §4)', () => {
    expect(switchChartExchange('a', 'bitmex').sort()).toEqual(['a', 'b']);
    expect(chartLinks.charts.a).toMatchObject({ exchange: 'bitmex', symbol: 'XBTUSD' });
    expect(chartLinks.charts.b).toMatchObject({ exchange: 'bitmex', symbol: 'XBTUSD' });
    expect(switchChartExchange('a', 'bitmex')).toEqual([]);
  });

  it('joining a group adopts its pair; leaving keeps the pair', () => {
    setChartLink('d', 'blue');
    expect(chartLinks.charts.d).toMatchObject({ link: 'blue', symbol: 'ETHUSDT' });
    setChartLink('d', null);
    setChartPair('c', 'bybit', 'BTCUSDT');
    expect(chartLinks.charts.d).toMatchObject({ link: null, symbol: 'ETHUSDT', exchange: 'binance' });
  });

  it('joining an empty colour keeps the chart pair', () => {
    setChartLink('d', 'yellow');
    expect(chartLinks.charts.d).toMatchObject({ link: 'yellow', symbol: 'SOLUSDT' });
  });

  it('refuses a malformed symbol', () => {
    expect(setChartPair('a', 'binance', 'not a symbol')).toEqual([]);
    expect(chartLinks.charts.a.symbol).toBe('BTCUSDT');
  });
});

describe('active chart', () => {
  it('follows registration, focus and closing', () => {
    expect(activeChart()).toBeNull();
    expect(showPairInActiveChart('binance', 'ETHUSDT')).toEqual([]);
    registerChart('x', chart());
    registerChart('y', chart({ symbol: 'SOLUSDT' }));
    expect(activeChart()?.id).toBe('x');
    setActiveChart('y');
    expect(showPairInActiveChart('bybit', 'ETHUSDT')).toEqual(['y']);
    expect(chartLinks.charts.y).toMatchObject({ exchange: 'bybit', symbol: 'ETHUSDT' });
    unregisterChart('y');
    expect(activeChart()?.id).toBe('x');
    setActiveChart('nope');
    expect(activeChart()?.id).toBe('x');
  });

  it('an existing entry wins over a re-registration (the store is the live copy)', () => {
    registerChart('x', chart());
    setChartPair('x', 'binance', 'ETHUSDT');
    registerChart('x', chart());
    expect(chartLinks.charts.x.symbol).toBe('ETHUSDT');
  });

  it('replaceCharts keeps the active chart only if it still exists', () => {
    replaceCharts({ p: chart(), q: chart() }, 'q');
    expect(chartLinks.activeChartId).toBe('q');
    replaceCharts({ r: chart() });
    expect(chartLinks.activeChartId).toBe('r');
  });
});

describe('indicator actions', () => {
  const sma: ChartIndicator = { id: 's', kind: 'sma', period: 20, source: 'close', color: '#f5c518' };
  beforeEach(() => replaceCharts({ a: chart({ link: 'red' }), b: chart({ link: 'red' }) }));

  it('add, edit and remove indicators of one chart only (a link group shares the pair, not the indicators)', () => {
    expect(addChartIndicator('a', sma)).toBe(true);
    expect(addChartIndicator('a', sma)).toBe(false);
    expect(chartLinks.charts.a.indicators).toEqual([sma]);
    expect(chartLinks.charts.b.indicators).toBeUndefined();
    updateChartIndicator('a', { ...sma, period: 50 });
    expect(chartLinks.charts.a.indicators).toEqual([{ ...sma, period: 50 }]);
    expect(sameChartConfig(chartLinks.charts.a, { ...chartLinks.charts.a, indicators: [sma] })).toBe(false);
    removeChartIndicator('a', 's');
    expect(chartLinks.charts.a.indicators).toEqual([]);
    expect(sameChartConfig(chartLinks.charts.a, chart({ link: 'red' }))).toBe(true);
  });
});
