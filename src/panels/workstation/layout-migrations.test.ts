import { Actions } from 'flexlayout-react';
import { describe, expect, it } from 'vitest';
import type { StoredLayout } from '../../api/contracts/settings';
import { CHART_PANEL, buildModel, chartConfigsOf, defaultLayoutJson, serializeLayout, tabNodesOf } from './layout-model';
import { migrateLayoutModel, repairLayoutJson, restoreLayout, type LayoutMigration } from './layout-migrations';
import { chartDefaults, testCatalog } from './test-fixtures';

const ctx = { catalog: testCatalog, chartDefaults };
const stored = (model: Record<string, unknown>, version = 1): StoredLayout => ({ version, savedAt: 1, model });
const tab = (component: string, id: string, config?: unknown) => ({ type: 'tab', id, name: 'x', component, ...(config === undefined ? {} : { config }) });
const layoutOf = (...tabsets: unknown[][]) => ({
  global: {},
  layout: { type: 'row', children: tabsets.map((children, i) => ({ type: 'tabset', id: `ts${i}`, weight: 50, children })) },
});
const componentsOf = (json: unknown) => tabNodesOf(buildModel(json as never)).map((t) => `${t.getComponent()}:${t.getId()}`);

describe('restoreLayout', () => {
  it('opens the default layout when nothing is stored', () => {
    const result = restoreLayout(null, ctx);
    expect(result.source).toBe('default');
    expect(result.json).toEqual(defaultLayoutJson(testCatalog, chartDefaults));
  });

  it('restores a saved layout exactly, maximised tabset included', () => {
    const model = buildModel(defaultLayoutJson(testCatalog, chartDefaults));
    model.doAction(Actions.maximizeToggle('ts-watch'));
    const saved = serializeLayout(model);
    const result = restoreLayout(saved, ctx);
    expect(result.source).toBe('stored');
    expect(result.repairs).toEqual([]);
    const restored = buildModel(result.json);
    expect(restored.toJson()).toEqual(saved.model);
  });

  it('uses the default layout for a layout from a newer app version', () => {
    const result = restoreLayout(stored(layoutOf([tab('favorites', 'f')]), 99), ctx);
    expect(result.source).toBe('default');
    expect(result.repairs[0]).toMatch(/newer/);
  });

  it('runs the version steps in order before repairing', () => {
    const migrations: Record<number, LayoutMigration> = {
      1: (m) => ({ ...m, layout: { type: 'row', children: [{ type: 'tabset', children: [tab('watchlist', 'w')] }] } }),
      2: (m) => JSON.parse(JSON.stringify(m).replaceAll('"watchlist"', '"favorites"')) as Record<string, unknown>,
    };
    const result = restoreLayout(stored({ layout: { type: 'row', children: [] } }), { ...ctx, migrations, currentVersion: 3 });
    expect(result.source).toBe('stored');
    expect(componentsOf(result.json)).toEqual(['favorites:w']);
  });

  it('keeps chart indicators through save and restore, reads charts saved before indicators unchanged (no version step)', () => {
    const sma = { id: 's', kind: 'sma', period: 20, source: 'close', color: '#f5c518' };
    const before = stored(layoutOf([tab('chart', 'c1', { exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null })]));
    const old = restoreLayout(before, ctx);
    expect(old.repairs).toEqual([]);
    expect(chartConfigsOf(buildModel(old.json), chartDefaults).c1).toEqual({ exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null });
    const config = { exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null, indicators: [sma] };
    const saved = serializeLayout(buildModel(restoreLayout(stored(layoutOf([tab('chart', 'c1', config)])), ctx).json));
    const again = restoreLayout(saved, ctx);
    expect(again.repairs).toEqual([]);
    expect(chartConfigsOf(buildModel(again.json), chartDefaults).c1).toEqual(config);
    // An unreadable entry (e.g. written by a newer build) is dropped; the rest stays.
    const mixed = restoreLayout(stored(layoutOf([tab('chart', 'c1', { ...config, indicators: [sma, { id: 'm', kind: 'macd' }] })])), ctx);
    expect(mixed.repairs).toEqual(['repaired the config of chart c1']);
    expect(chartConfigsOf(buildModel(mixed.json), chartDefaults).c1.indicators).toEqual([sma]);
  });

  it('falls back to the default when a version step is missing', () => {
    const result = restoreLayout(stored(layoutOf([tab('favorites', 'f')])), { ...ctx, migrations: {}, currentVersion: 2 });
    expect(result.source).toBe('default');
    expect(result.repairs[0]).toMatch(/No layout migration from version 1/);
  });

  it('falls back to the default when the JSON is not a layout', () => {
    expect(restoreLayout(stored({ layout: 'nope' }), ctx).source).toBe('default');
    expect(restoreLayout(stored({}), ctx).source).toBe('default');
  });
});

describe('repairLayoutJson', () => {
  it('drops panels this build does not have and tabsets left empty', () => {
    const result = repairLayoutJson(layoutOf([tab('gone', 'g')], [tab('favorites', 'f'), tab('gone', 'g2')]), ctx);
    expect(componentsOf(result?.json)).toEqual(['favorites:f']);
    expect(result?.repairs).toContain('dropped panel "gone" (no longer exists)');
  });

  it('keeps one copy of a single-instance panel and renames duplicate ids', () => {
    const result = repairLayoutJson(layoutOf([tab('favorites', 'f'), tab('favorites', 'f2'), tab(CHART_PANEL, 'c', chartDefaults), tab(CHART_PANEL, 'c', chartDefaults)]), ctx);
    const ids = componentsOf(result?.json);
    expect(ids.filter((k) => k.startsWith('favorites'))).toEqual(['favorites:f']);
    const charts = ids.filter((k) => k.startsWith('chart'));
    expect(charts).toHaveLength(2);
    expect(new Set(charts).size).toBe(2);
  });

  it('repairs chart configs field by field', () => {
    const result = repairLayoutJson(layoutOf([tab(CHART_PANEL, 'c', { exchange: 'okx', symbol: 'ETH-USDT-SWAP', interval: 'weird', link: 'red' })]), ctx);
    const configs = chartConfigsOf(buildModel(result!.json), chartDefaults);
    expect(configs.c).toEqual({ exchange: 'okx', symbol: 'ETH-USDT-SWAP', interval: '5m', link: 'red' });
  });

  it('keeps only one maximised and one active tabset, and clamps the selected tab', () => {
    const json = layoutOf([tab('favorites', 'f')], [tab('alerts', 'a')]) as { layout: { children: Record<string, unknown>[] } };
    Object.assign(json.layout.children[0], { maximized: true, active: true, selected: 7 });
    Object.assign(json.layout.children[1], { maximized: true, active: true });
    const model = buildModel(repairLayoutJson(json, ctx)!.json);
    expect(model.getMaximizedTabset()?.getId()).toBe('ts0');
    expect(model.getActiveTabset()?.getId()).toBe('ts0');
    expect(model.getMaximizedTabset()?.getSelectedNode()?.getId()).toBe('f');
  });

  it('brings popout windows back as floating panels (a page load cannot reopen windows)', () => {
    const json = {
      ...layoutOf([tab(CHART_PANEL, 'c', chartDefaults)]),
      subLayouts: {
        w1: { type: 'window', rect: { x: 10, y: 10, width: 500, height: 300 }, layout: { type: 'row', children: [{ type: 'tabset', children: [tab('favorites', 'f')] }] } },
        w2: { type: 'window', layout: { type: 'row', children: [{ type: 'tabset', children: [tab('gone', 'g')] }] } },
      },
    };
    const result = repairLayoutJson(json, ctx)!;
    expect(Object.keys(result.json.subLayouts ?? {})).toEqual(['w1']);
    expect(result.json.subLayouts?.w1.type).toBe('float');
    expect(componentsOf(result.json).sort()).toEqual(['chart:c', 'favorites:f']);
  });

  it('applies the workstation attributes over stored global ones', () => {
    const json = { ...layoutOf([tab('favorites', 'f')]), global: { tabEnablePopout: false, tabSetMinWidth: 5, splitterExtra: 3 } };
    const result = repairLayoutJson(json, ctx)!;
    expect(result.json.global?.tabEnablePopout).toBe(true);
    expect(result.json.global?.tabSetMinWidth).toBe(160);
  });

  it('loads an emptied layout (the user closed every panel)', () => {
    const result = repairLayoutJson({ layout: { type: 'row', children: [] } }, ctx)!;
    expect(tabNodesOf(buildModel(result.json))).toHaveLength(0);
  });
});

describe('migrateLayoutModel', () => {
  it('is the identity at the current version', () => {
    const model = { layout: { type: 'row' } };
    expect(migrateLayoutModel(model, 1, 1, {})).toBe(model);
  });
});
