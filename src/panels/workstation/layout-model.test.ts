import { Actions, TabNode, TabSetNode, type Model } from 'flexlayout-react';
import { describe, expect, it } from 'vitest';
import { WORKSTATION_LAYOUT_VERSION } from '../../api/contracts/settings';
import type { ChartConfig } from '../../state/chart-links';
import { chartDefaults, testCatalog } from './test-fixtures';
import {
  CHART_PANEL,
  addPanel,
  buildModel,
  chartConfigsOf,
  defaultLayoutJson,
  findPanel,
  serializeLayout,
  tabNodesOf,
  writeChartConfigs,
} from './layout-model';

const kinds = (model: Model) => tabNodesOf(model).map((t) => t.getComponent());

describe('default layout', () => {
  it('opens the chart, the account panels, order entry and the watch panels, with the chart active', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    expect(kinds(model).sort()).toEqual(['alerts', 'balance', 'chart', 'favorites', 'order-entry', 'orders', 'positions'].sort());
    expect(model.getActiveTabset()?.getSelectedNode()?.getComponent()).toBe(CHART_PANEL);
    expect(chartConfigsOf(model, chartDefaults)).toEqual({ 'chart-main': chartDefaults });
    expect(model.getMaximizedTabset()).toBeUndefined();
  });

  it('takes the chart market it is given (the user settings) and leaves out panels not offered', () => {
    const { alerts: _alerts, ...withoutAlerts } = testCatalog;
    const chart: ChartConfig = { exchange: 'bitmex', symbol: 'XBTUSD', interval: '1h', link: null };
    const model = buildModel(defaultLayoutJson(withoutAlerts, chart));
    expect(kinds(model)).not.toContain('alerts');
    expect(chartConfigsOf(model, chartDefaults)['chart-main']).toEqual(chart);
  });

  it('turns popouts on and the single-tab panels get readable ids', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    expect(findPanel(model, 'favorites')?.getId()).toBe('favorites');
    expect(findPanel(model, 'favorites')?.isEnablePopout()).toBe(true);
  });
});

describe('addPanel', () => {
  it('adds any number of charts, each with its own id and config, to the active tabset', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    const a = addPanel(model, CHART_PANEL, testCatalog, { ...chartDefaults, symbol: 'ETHUSDT' });
    const b = addPanel(model, CHART_PANEL, testCatalog, { ...chartDefaults, symbol: 'SOLUSDT' });
    expect(a?.getId()).not.toBe(b?.getId());
    expect(Object.values(chartConfigsOf(model, chartDefaults)).map((c) => c.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(b?.getParent()?.getId()).toBe('ts-charts');
    expect(b?.isSelected()).toBe(true);
  });

  it('brings an open single-instance panel to view instead of opening it twice', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    model.doAction(Actions.selectTab('alerts'));
    const tab = addPanel(model, 'favorites', testCatalog);
    expect(tab?.getId()).toBe('favorites');
    expect(kinds(model).filter((k) => k === 'favorites')).toHaveLength(1);
    expect(tab?.isSelected()).toBe(true);
    expect(model.getActiveTabset()?.getId()).toBe('ts-watch');
  });

  it('lifts a maximised tabset that hides the panel being revealed', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    model.doAction(Actions.maximizeToggle('ts-charts'));
    expect(model.getMaximizedTabset()?.getId()).toBe('ts-charts');
    addPanel(model, 'favorites', testCatalog);
    expect(model.getMaximizedTabset()).toBeUndefined();
  });

  it('re-opens a closed panel, and opens a panel into an emptied layout', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    for (const tab of tabNodesOf(model)) model.doAction(Actions.deleteTab(tab.getId()));
    expect(tabNodesOf(model)).toHaveLength(0);
    expect(addPanel(model, 'favorites', testCatalog)?.getId()).toBe('favorites');
    expect(kinds(model)).toEqual(['favorites']);
  });

  it('ignores panels the catalog does not know', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    expect(addPanel(model, 'nope', testCatalog)).toBeUndefined();
  });
});

describe('serializeLayout', () => {
  it('stores flexlayout JSON with the version and time, and round-trips maximised and active state', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    model.doAction(Actions.maximizeToggle('ts-account'));
    model.doAction(Actions.selectTab('orders'));
    const stored = serializeLayout(model, 1234);
    expect(stored.version).toBe(WORKSTATION_LAYOUT_VERSION);
    expect(stored.savedAt).toBe(1234);
    const again = buildModel(stored.model as never);
    expect(again.getMaximizedTabset()?.getId()).toBe('ts-account');
    const node = again.getNodeById('ts-account');
    expect(node instanceof TabSetNode && node.getSelectedNode()?.getId()).toBe('orders');
  });
});

describe('writeChartConfigs', () => {
  it('writes only changed chart configs, in one model change', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    const second = addPanel(model, CHART_PANEL, testCatalog, chartDefaults) as TabNode;
    let changes = 0;
    model.addChangeListener(() => changes++);
    const next = { 'chart-main': { ...chartDefaults, symbol: 'ETHUSDT', link: 'red' as const }, [second.getId()]: { ...chartDefaults, link: 'red' as const } };
    expect(writeChartConfigs(model, next)).toBe(true);
    expect(changes).toBe(1);
    expect(chartConfigsOf(model, chartDefaults)).toEqual(next);
    expect(writeChartConfigs(model, next)).toBe(false);
    expect(changes).toBe(1);
  });
});
