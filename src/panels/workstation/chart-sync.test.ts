import { Actions, TabNode } from 'flexlayout-react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chartLinks, setActiveChart, setChartLink, setChartPair, setChartTimeframe } from '../../state/chart-links';
import { defaultUserSettings, setExchange, userSettings } from '../../state/user-settings';
import { connectActiveChartToUserSettings, connectChartsToModel } from './chart-sync';
import { CHART_PANEL, addPanel, buildModel, chartConfigsOf, defaultLayoutJson } from './layout-model';
import { chartDefaults, testCatalog } from './test-fixtures';

// valtio notifies subscribers in a microtask batch.
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let stops: (() => void)[] = [];
beforeEach(() => {
  Object.assign(userSettings, defaultUserSettings());
});
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

function connectedModel() {
  const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
  stops.push(connectChartsToModel(model, chartDefaults));
  return model;
}

describe('connectChartsToModel', () => {
  it('loads the model charts into the store, the selected chart of the active tabset active', () => {
    connectedModel();
    expect(chartLinks.charts).toEqual({ 'chart-main': chartDefaults });
    expect(chartLinks.activeChartId).toBe('chart-main');
  });

  it('writes store changes into the node configs (what the layout saves), including the linked charts', async () => {
    const model = connectedModel();
    const second = addPanel(model, CHART_PANEL, testCatalog, chartDefaults) as TabNode;
    await flush();
    setChartLink('chart-main', 'red');
    setChartLink(second.getId(), 'red');
    setChartTimeframe(second.getId(), '1h');
    setChartPair('chart-main', 'bybit', 'ETHUSDT');
    await flush();
    expect(chartConfigsOf(model, chartDefaults)).toEqual({
      'chart-main': { exchange: 'bybit', symbol: 'ETHUSDT', interval: '5m', link: 'red' },
      [second.getId()]: { exchange: 'bybit', symbol: 'ETHUSDT', interval: '1h', link: 'red' },
    });
  });

  it('follows charts opened and closed in the layout, and the chart the user selects', async () => {
    const model = connectedModel();
    const added = addPanel(model, CHART_PANEL, testCatalog, { ...chartDefaults, symbol: 'SOLUSDT' }) as TabNode;
    expect(chartLinks.charts[added.getId()]?.symbol).toBe('SOLUSDT');
    expect(chartLinks.activeChartId).toBe(added.getId());
    model.doAction(Actions.selectTab('chart-main'));
    expect(chartLinks.activeChartId).toBe('chart-main');
    model.doAction(Actions.deleteTab('chart-main'));
    expect(Object.keys(chartLinks.charts)).toEqual([added.getId()]);
    expect(chartLinks.activeChartId).toBe(added.getId());
  });

  it('stops writing after disconnect', async () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    const stop = connectChartsToModel(model, chartDefaults);
    stop();
    setChartPair('chart-main', 'binance', 'ETHUSDT');
    await flush();
    expect(chartConfigsOf(model, chartDefaults)['chart-main'].symbol).toBe('BTCUSDT');
  });
});

describe('connectActiveChartToUserSettings', () => {
  it('on start, the restored active chart sets the trading market (the layout opens as saved)', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, { ...chartDefaults, exchange: 'bybit', symbol: 'ETHUSDT' }));
    stops.push(connectChartsToModel(model, chartDefaults));
    stops.push(connectActiveChartToUserSettings());
    expect(userSettings).toMatchObject({ exchangeName: 'bybit', tradingPair: 'ETHUSDT', category: 'linear' });
  });

  it('a pair change in the active chart, or another chart becoming active, sets the trading pair', async () => {
    const model = connectedModel();
    const other = addPanel(model, CHART_PANEL, testCatalog, { ...chartDefaults, symbol: 'SOLUSDT' }) as TabNode;
    stops.push(connectActiveChartToUserSettings());
    expect(userSettings.tradingPair).toBe('SOLUSDT');
    setActiveChart('chart-main');
    await flush();
    expect(userSettings.tradingPair).toBe('BTCUSDT');
    setChartPair('chart-main', 'bitmex', 'XBTUSD');
    await flush();
    expect(userSettings).toMatchObject({ exchangeName: 'bitmex', tradingPair: 'XBTUSD' });
    expect(chartLinks.charts[other.getId()].symbol).toBe('SOLUSDT');
  });

  it('an exchange chosen in the top bar moves the active chart to it', async () => {
    connectedModel();
    stops.push(connectActiveChartToUserSettings());
    setExchange('okx');
    await flush();
    expect(chartLinks.charts['chart-main']).toMatchObject({ exchange: 'okx', symbol: 'BTCUSDT' });
    await flush();
    expect(userSettings).toMatchObject({ exchangeName: 'okx', tradingPair: 'BTCUSDT' });
  });
});
