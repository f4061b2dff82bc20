import {
  Actions,
  DockLocation,
  Model,
  TabNode,
  TabSetNode,
  type IGlobalAttributes,
  type IJsonModel,
  type IJsonRowNode,
  type IJsonTabNode,
  type IJsonTabSetNode,
} from 'flexlayout-react';
import { WORKSTATION_LAYOUT_VERSION, type StoredLayout } from '../../api/contracts/settings';
import { chartConfigSchema, parseChartConfig, sameChartConfig, type ChartConfig } from '../../state/chart-links';

/**
 * The workstation's layout model: the default layout, the product-wide flexlayout attributes, and
 * the model operations the UI performs (add/find panels, serialise). Pure TypeScript on top of
 * flexlayout's Model, so it runs in node tests without a DOM.
 */

/** The flexlayout `component` of chart panels (their node config is a `ChartConfig`). */
export const CHART_PANEL = 'chart';

/** What layout code needs to know about each panel kind (the registry provides it). */
export interface PanelCatalogEntry {
  title: string;
  allowMultiple: boolean;
}
export type PanelCatalog = Readonly<Record<string, PanelCatalogEntry>>;

/**
 * Re-applied to every layout on load, so a product decision (popouts on, minimum sizes) reaches
 * layouts saved before it was made.
 */
export const WORKSTATION_GLOBAL_ATTRIBUTES: IGlobalAttributes = {
  tabEnablePopout: true,
  tabEnablePopoutIcon: true,
  tabEnableRename: false,
  // Panels own their scrolling: a chart must never get scrollbars, lists use their own.
  tabEnableScrollbars: false,
  tabSetEnableMaximize: true,
  tabSetMinWidth: 160,
  tabSetMinHeight: 90,
  enableEdgeDock: true,
};

/** Ids of single-instance panels are their kind (stable, readable); others get a random suffix. */
export function newPanelId(kind: string, entry: PanelCatalogEntry): string {
  if (!entry.allowMultiple) return kind;
  const random = globalThis.crypto?.randomUUID?.().slice(0, 8) ?? Math.random().toString(36).slice(2, 10);
  return `${kind}-${random}`;
}

export function createTabJson(kind: string, catalog: PanelCatalog, config?: unknown, id?: string): IJsonTabNode {
  const entry = catalog[kind];
  if (!entry) throw new Error(`Unknown panel "${kind}"`);
  const tab: IJsonTabNode = { type: 'tab', id: id ?? newPanelId(kind, entry), name: entry.title, component: kind };
  if (config !== undefined) tab.config = config;
  return tab;
}

const tabset = (id: string, weight: number, tabs: IJsonTabNode[], extra: Partial<IJsonTabSetNode> = {}): IJsonTabSetNode => ({
  type: 'tabset',
  id,
  weight,
  children: tabs,
  ...extra,
});

/**
 * A new user's layout: the chart large on the left with the account panels under it; order entry
 * and the watch panels (favourites, alerts) in a column on the right. Panels the catalog does not
 * offer (feature flag off) are left out.
 */
export function defaultLayoutJson(catalog: PanelCatalog, chart: ChartConfig): IJsonModel {
  const tabs = (...kinds: string[]) =>
    kinds.filter((k) => k in catalog).map((k) => createTabJson(k, catalog, k === CHART_PANEL ? { ...chart } : undefined, k === CHART_PANEL ? 'chart-main' : k));
  const left = [
    tabset('ts-charts', 68, tabs(CHART_PANEL), { active: true }),
    tabset('ts-account', 32, tabs('positions', 'orders', 'balance')),
  ].filter((t) => t.children?.length);
  const right = [tabset('ts-order-entry', 55, tabs('order-entry')), tabset('ts-watch', 45, tabs('favorites', 'alerts'))].filter(
    (t) => t.children?.length,
  );
  const children: IJsonRowNode['children'] = [];
  if (left.length) children.push({ type: 'row', weight: 75, children: left });
  if (right.length) children.push({ type: 'row', weight: 25, children: right });
  return { global: { ...WORKSTATION_GLOBAL_ATTRIBUTES }, borders: [], layout: { type: 'row', id: 'root', weight: 100, children } };
}

/** Throws when flexlayout cannot build a model from the JSON (callers fall back to the default). */
export function buildModel(json: IJsonModel): Model {
  return Model.fromJson(json);
}

/** The model as it is stored on the server and in the local copy. */
export function serializeLayout(model: Model, now: number = Date.now()): StoredLayout {
  return { version: WORKSTATION_LAYOUT_VERSION, savedAt: now, model: model.toJson() as unknown as Record<string, unknown> };
}

export function tabNodesOf(model: Model): TabNode[] {
  const tabs: TabNode[] = [];
  model.visitNodes((node) => {
    if (node instanceof TabNode) tabs.push(node);
  });
  return tabs;
}

export function findPanel(model: Model, kind: string): TabNode | undefined {
  return tabNodesOf(model).find((tab) => tab.getComponent() === kind);
}

/** Every chart panel with its config read from the node (repaired with `fallback` where invalid). */
export function chartConfigsOf(model: Model, fallback: ChartConfig): Record<string, ChartConfig> {
  const out: Record<string, ChartConfig> = {};
  for (const tab of tabNodesOf(model)) {
    if (tab.getComponent() === CHART_PANEL) out[tab.getId()] = parseChartConfig(tab.getConfig(), fallback);
  }
  return out;
}

/** Brings a tab to view: selects it and lifts a maximised tabset that would hide it. */
export function revealPanel(model: Model, tab: TabNode): void {
  const parent = tab.getParent();
  const tabsetNode = parent instanceof TabSetNode ? parent : parent?.getParent();
  const maximized = model.getMaximizedTabset(tab.getLayoutId());
  if (maximized && maximized !== tabsetNode) model.doAction(Actions.maximizeToggle(maximized.getId(), tab.getLayoutId()));
  if (!tab.isSelected()) model.doAction(Actions.selectTab(tab.getId()));
  if (tabsetNode instanceof TabSetNode) model.doAction(Actions.setActiveTabset(tabsetNode.getId(), tab.getLayoutId()));
}

/**
 * Opens a panel: a single-instance panel that is already open is brought to view instead of opened
 * twice; a new one goes into `tabsetId` when given, else the maximised or active tabset (what the
 * user is looking at), else the first one, else the empty root.
 * Returns the panel's tab.
 */
export function addPanel(model: Model, kind: string, catalog: PanelCatalog, config?: unknown, tabsetId?: string): TabNode | undefined {
  const entry = catalog[kind];
  if (!entry) return undefined;
  if (!entry.allowMultiple) {
    const existing = findPanel(model, kind);
    if (existing) {
      revealPanel(model, existing);
      return existing;
    }
  }
  const json = createTabJson(kind, catalog, config);
  const requested = tabsetId === undefined ? undefined : model.getNodeById(tabsetId);
  const maximized = model.getMaximizedTabset();
  const target = (requested instanceof TabSetNode ? requested : undefined) ?? maximized ?? model.getActiveTabset() ?? model.getFirstTabSet();
  const toId = target?.getId() ?? model.getRootRow()?.getId();
  if (toId === undefined) return undefined;
  const added: unknown = model.doAction(Actions.addTab(json, toId, DockLocation.CENTER, -1, true));
  return added instanceof TabNode ? added : (model.getNodeById(json.id ?? '') as TabNode | undefined);
}

/**
 * Writes chart configs into their nodes (so they are saved with the layout). Only changed nodes are
 * touched, in one grouped action: one model change, one save.
 */
export function writeChartConfigs(model: Model, charts: Readonly<Record<string, ChartConfig>>): boolean {
  const actions = [];
  for (const [id, config] of Object.entries(charts)) {
    const node = model.getNodeById(id);
    if (!(node instanceof TabNode) || node.getComponent() !== CHART_PANEL) continue;
    const current = chartConfigSchema.safeParse(node.getConfig());
    if (current.success && sameChartConfig(current.data, config)) continue;
    actions.push(Actions.updateNodeAttributes(id, { config: { ...config } }));
  }
  if (actions.length === 0) return false;
  model.doAction(actions.length === 1 ? actions[0] : Actions.group(actions));
  return true;
}
