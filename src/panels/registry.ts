import {
  IconBell,
  IconBook2,
  IconChartCandle,
  IconLadder,
  IconListDetails,
  IconRadar,
  IconReceipt,
  IconShoppingCart,
  IconStar,
  IconTimeline,
  IconWallet,
  type TablerIcon,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { FeatureFlagKey, FeatureFlagMap } from '../api/contracts/feature-flags';
import { AlertsPanel } from './alerts/alerts-panel';
import { AlertMonitorService } from './alerts/use-alert-monitor';
import { ChartPanel } from './chart/chart-panel';
import { DomLadderPanel } from './dom-ladder/dom-ladder-panel';
import { FavoritesPanel } from './favorites/favorites-panel';
import { OrderBookPanel } from './order-book/order-book-panel';
import { ScannerPanel } from './scanner/scanner-panel';
import type { PanelProps } from './shared/panel-props';
import { TradesTapePanel } from './trades-tape/trades-tape-panel';
import { BalancePanel } from './trading/balance-panel';
import { OrderEntryPanel } from './trading/order-entry-panel';
import { OrdersPanel } from './trading/orders-panel';
import { PositionsPanel } from './trading/positions-panel';
import type { PanelCatalogEntry } from './workstation/layout-model';

/**
 * Every panel the workstation can host, by its flexlayout `component` id. The layout code knows
 * panels only through this table: a new panel (or a finished one replacing its stand-in) is one entry
 * here, never an edit of the layout. Ids are stored in saved layouts: never rename one (a layout
 * holding an unknown id drops that panel on load).
 */
export interface PanelDefinition extends PanelCatalogEntry {
  /** Tab title and menu label. */
  title: string;
  /** One line for the add-panel menu. */
  description: string;
  icon: TablerIcon;
  component: ComponentType<PanelProps>;
  /** Any number of instances (charts), or one that "add" brings to view. */
  allowMultiple: boolean;
  /** Offered only while this feature flag is on; an open panel says it is turned off. */
  flag?: FeatureFlagKey;
}

export const PANEL_REGISTRY = {
  chart: {
    title: 'Chart',
    description: 'Candles for any exchange, pair and interval; link charts by colour',
    icon: IconChartCandle,
    component: ChartPanel,
    allowMultiple: true,
  },
  favorites: {
    title: 'Favourites',
    description: 'Your favourite pairs; click one to show it in the active chart',
    icon: IconStar,
    component: FavoritesPanel,
    allowMultiple: false,
  },
  alerts: {
    title: 'Alerts',
    description: 'Price alerts for your pairs',
    icon: IconBell,
    component: AlertsPanel,
    allowMultiple: false,
    flag: 'FF_ENABLE_ALERTS',
  },
  'order-entry': {
    title: 'Order entry',
    description: 'Market, limit, stop and bracket orders sized from your risk',
    icon: IconShoppingCart,
    component: OrderEntryPanel,
    allowMultiple: false,
  },
  positions: {
    title: 'Positions',
    description: 'Open positions with entry, liquidation and PnL',
    icon: IconListDetails,
    component: PositionsPanel,
    allowMultiple: false,
  },
  orders: {
    title: 'Orders',
    description: 'Open orders and waiting stops; cancel one or all',
    icon: IconReceipt,
    component: OrdersPanel,
    allowMultiple: false,
  },
  balance: {
    title: 'Balance',
    description: 'Total or available balance, margin in use, unrealised PnL',
    icon: IconWallet,
    component: BalancePanel,
    allowMultiple: false,
  },
  scanner: {
    title: 'Scanner',
    description: 'Every perpetual of your exchanges, live: sort by change, volume, funding, volatility',
    icon: IconRadar,
    component: ScannerPanel,
    allowMultiple: false,
    flag: 'FF_ENABLE_SCANNER',
  },
  'dom-ladder': {
    title: 'DOM ladder',
    description: 'Trade from the price ladder: click to place, drag to move, ✕ to cancel',
    icon: IconLadder,
    component: DomLadderPanel,
    allowMultiple: false,
  },
  'order-book': {
    title: 'Order book',
    description: 'Bids and asks with depth bars, spread, grouping and your orders; click a level to trade at it',
    icon: IconBook2,
    component: OrderBookPanel,
    allowMultiple: false,
  },
  'trades-tape': {
    title: 'Trades tape',
    description: 'Every trade of the pair as it prints: filter small ones, highlight large ones',
    icon: IconTimeline,
    component: TradesTapePanel,
    allowMultiple: false,
  },
} satisfies Record<string, PanelDefinition>;

export type PanelKind = keyof typeof PANEL_REGISTRY;

/**
 * Work the workstation does once per window while `/trade` is open, whichever panels are open or
 * closed (a panel's component lives only while its tab does). Rendered by the layout; a service
 * whose flag is off is not mounted.
 */
export interface WorkstationService {
  id: string;
  /** Renders nothing visible; runs its hooks. */
  component: ComponentType;
  flag?: FeatureFlagKey;
}

export const WORKSTATION_SERVICES: readonly WorkstationService[] = [
  // Fires price alerts (sound, toast, browser notification) with or without the Alerts panel open.
  { id: 'alert-monitor', component: AlertMonitorService, flag: 'FF_ENABLE_ALERTS' },
];

/** The services to run under these flags. */
export function activeServices(flags: Partial<FeatureFlagMap> | undefined): WorkstationService[] {
  return WORKSTATION_SERVICES.filter((service) => service.flag === undefined || flags?.[service.flag] === true);
}

/** The registry as a plain lookup (unknown ids read as undefined). */
export const panelRegistry: Readonly<Record<string, PanelDefinition>> = PANEL_REGISTRY;

export function isPanelOffered(definition: PanelDefinition, flags: Partial<FeatureFlagMap> | undefined): boolean {
  return definition.flag === undefined || flags?.[definition.flag] === true;
}

/** The panels the add menu and the default layout offer under these flags, in menu order. */
export function offeredPanels(flags: Partial<FeatureFlagMap> | undefined): Record<string, PanelDefinition> {
  return Object.fromEntries(Object.entries(panelRegistry).filter(([, definition]) => isPanelOffered(definition, flags)));
}
