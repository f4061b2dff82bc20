import type { IJsonModel, IJsonRowNode, IJsonSubLayout, IJsonTabNode, IJsonTabSetNode } from 'flexlayout-react';
import { WORKSTATION_LAYOUT_VERSION, type StoredLayout } from '../../api/contracts/settings';
import { parseChartConfig, type ChartConfig } from '../../state/chart-links';
import { CHART_PANEL, WORKSTATION_GLOBAL_ATTRIBUTES, defaultLayoutJson, newPanelId, type PanelCatalog } from './layout-model';

/**
 * Stored layouts are flexlayout's JSON written by some earlier build, possibly on another device, so
 * they are never trusted: they are migrated by `version`, then repaired node by node. Whatever cannot
 * be read becomes the default layout; a layout is never the reason the workstation fails to open.
 */

type Json = Record<string, unknown>;
/** Turns a layout of version k (the key) into version k + 1. */
export type LayoutMigration = (model: Json) => Json;

/**
 * Version 1 is the first stored format; when flexlayout's JSON or our node configs change shape,
 * add step N here and bump `WORKSTATION_LAYOUT_VERSION` in the settings contract.
 */
export const LAYOUT_MIGRATIONS: Readonly<Record<number, LayoutMigration>> = {};

export interface RestoreContext {
  /** Every panel this build has: stored panels of other kinds are dropped. */
  catalog: PanelCatalog;
  /** The panels the default layout may use (feature flags applied); `catalog` when absent. */
  offered?: PanelCatalog;
  /** Used for a chart whose stored config is unreadable, and for the default layout's chart. */
  chartDefaults: ChartConfig;
  migrations?: Readonly<Record<number, LayoutMigration>>;
  currentVersion?: number;
}

export interface RestoredLayout {
  json: IJsonModel;
  /** `default` when there was no usable stored layout. */
  source: 'stored' | 'default';
  /** What had to be repaired or dropped (logged; asserted by tests). */
  repairs: string[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Popout windows cannot be reopened without a click (popup blockers): they come back as floating panels. */
const FALLBACK_FLOAT_RECT = { x: 80, y: 80, width: 640, height: 420 };

class Repairer {
  readonly repairs: string[] = [];
  private readonly ids = new Set<string>();
  private readonly singletons = new Set<string>();

  constructor(private readonly ctx: RestoreContext) {}

  private note(message: string): void {
    this.repairs.push(message);
  }

  tab(raw: unknown): IJsonTabNode | null {
    if (!isObject(raw) || (raw.type !== undefined && raw.type !== 'tab')) return this.drop('a malformed tab');
    const kind = raw.component;
    const entry = typeof kind === 'string' ? this.ctx.catalog[kind] : undefined;
    if (typeof kind !== 'string' || !entry) return this.drop(`panel "${String(kind)}" (no longer exists)`);
    if (!entry.allowMultiple) {
      if (this.singletons.has(kind)) return this.drop(`a second "${kind}" panel`);
      this.singletons.add(kind);
    }
    const tab: IJsonTabNode = { ...(raw as IJsonTabNode), type: 'tab', component: kind, name: entry.title };
    delete tab.subLayoutId;
    if (typeof raw.id !== 'string' || raw.id === '' || this.ids.has(raw.id)) {
      tab.id = newPanelId(kind, entry);
      this.note(`gave "${kind}" a new id`);
    }
    this.ids.add(tab.id as string);
    if (kind === CHART_PANEL) {
      const config = parseChartConfig(raw.config, this.ctx.chartDefaults);
      if (JSON.stringify(config) !== JSON.stringify(raw.config)) this.note(`repaired the config of chart ${tab.id}`);
      tab.config = config;
    }
    return tab;
  }

  private drop(what: string): null {
    this.note(`dropped ${what}`);
    return null;
  }

  private tabs(raw: unknown): IJsonTabSetNode['children'] {
    if (!Array.isArray(raw)) return [];
    const out: NonNullable<IJsonTabSetNode['children']> = [];
    for (const child of raw) {
      if (isObject(child) && child.type === 'tabgroup') {
        const members = (Array.isArray(child.children) ? child.children : []).map((t) => this.tab(t)).filter((t) => t !== null);
        if (members.length) out.push({ ...child, type: 'tabgroup', children: members });
        continue;
      }
      const tab = this.tab(child);
      if (tab) out.push(tab);
    }
    return out;
  }

  tabset(raw: Json, flags: { maximized: boolean; active: boolean }): IJsonTabSetNode | null {
    const children = this.tabs(raw.children);
    if (!children?.length) return null;
    const node: IJsonTabSetNode = { ...(raw as IJsonTabSetNode), type: 'tabset', children };
    const count = children.reduce((n, c) => n + (isObject(c) && c.type === 'tabgroup' && Array.isArray(c.children) ? c.children.length : 1), 0);
    if (!finite(node.selected) || node.selected < 0 || node.selected >= count) node.selected = 0;
    if (!finite(node.weight) || node.weight <= 0) node.weight = 50;
    // flexlayout honours one maximised and one active tabset per layout; a second would be ambiguous.
    if (node.maximized) {
      if (flags.maximized) delete node.maximized;
      flags.maximized = true;
    }
    if (node.active) {
      if (flags.active) delete node.active;
      flags.active = true;
    }
    return node;
  }

  row(raw: unknown, flags = { maximized: false, active: false }): IJsonRowNode | null {
    if (!isObject(raw) || (raw.type !== undefined && raw.type !== 'row')) return null;
    const children: NonNullable<IJsonRowNode['children']> = [];
    for (const child of Array.isArray(raw.children) ? raw.children : []) {
      if (isObject(child) && child.type === 'tabset') {
        const node = this.tabset(child, flags);
        if (node) children.push(node);
      } else {
        const node = this.row(child, flags);
        if (node?.children?.length) children.push(node);
      }
    }
    const row: IJsonRowNode = { ...(raw as IJsonRowNode), type: 'row', children };
    if (!finite(row.weight) || row.weight <= 0) row.weight = 100;
    return row;
  }

  subLayouts(raw: unknown): Record<string, IJsonSubLayout> {
    const out: Record<string, IJsonSubLayout> = {};
    if (!isObject(raw)) return out;
    for (const [id, sub] of Object.entries(raw)) {
      if (!isObject(sub)) continue;
      if (sub.type === 'tab') continue; // sublayouts inside tabs are not a workstation feature
      const layout = this.row(sub.layout);
      if (!layout?.children?.length) continue;
      const rect = isObject(sub.rect) && [sub.rect.x, sub.rect.y, sub.rect.width, sub.rect.height].every(finite) ? sub.rect : FALLBACK_FLOAT_RECT;
      if (sub.type === 'window') this.note(`reopened popout ${id} as a floating panel`);
      out[id] = { ...(sub as Partial<IJsonSubLayout>), layout, type: 'float', rect: rect as IJsonSubLayout['rect'] };
    }
    return out;
  }
}

/** Runs the version steps from `from` up to `to`; throws when a step is missing. */
export function migrateLayoutModel(model: Json, from: number, to: number, migrations: Readonly<Record<number, LayoutMigration>>): Json {
  let current = model;
  for (let version = from; version < to; version++) {
    const step = migrations[version];
    if (!step) throw new Error(`No layout migration from version ${version}`);
    current = step(current);
  }
  return current;
}

/** Repairs a (current-version) flexlayout JSON for this build's panels and rules. */
export function repairLayoutJson(model: unknown, ctx: RestoreContext): { json: IJsonModel; repairs: string[] } | null {
  if (!isObject(model)) return null;
  const repairer = new Repairer(ctx);
  const subLayouts = repairer.subLayouts(model.subLayouts ?? model.popouts);
  const root = repairer.row(model.layout);
  if (!root) return null;
  const global = { ...(isObject(model.global) ? model.global : {}), ...WORKSTATION_GLOBAL_ATTRIBUTES };
  const json: IJsonModel = { global, borders: [], layout: root };
  if (Object.keys(subLayouts).length) json.subLayouts = subLayouts;
  if (Array.isArray(model.borders) && model.borders.length) repairer.repairs.push('dropped the borders');
  return { json, repairs: repairer.repairs };
}

/** The layout to open for a stored layout (null: none saved yet). */
export function restoreLayout(stored: StoredLayout | null, ctx: RestoreContext): RestoredLayout {
  const fallback = (repairs: string[]): RestoredLayout => ({
    json: defaultLayoutJson(ctx.offered ?? ctx.catalog, ctx.chartDefaults),
    source: 'default',
    repairs,
  });
  if (stored === null) return fallback([]);
  const current = ctx.currentVersion ?? WORKSTATION_LAYOUT_VERSION;
  if (stored.version > current) return fallback([`layout version ${stored.version} is newer than this app (${current})`]);
  let model: Json;
  try {
    model = migrateLayoutModel(stored.model, stored.version, current, ctx.migrations ?? LAYOUT_MIGRATIONS);
  } catch (error) {
    return fallback([`layout could not be migrated: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const repaired = repairLayoutJson(model, ctx);
  if (!repaired) return fallback(['layout was unreadable']);
  return { json: repaired.json, source: 'stored', repairs: repaired.repairs };
}
