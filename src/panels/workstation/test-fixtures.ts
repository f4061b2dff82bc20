import type { ChartConfig } from '../../state/chart-links';
import type { PanelCatalog } from './layout-model';

/** The catalog the layout unit tests use (the real registry carries React components). */
export const testCatalog: PanelCatalog = {
  chart: { title: 'Chart', allowMultiple: true },
  'order-entry': { title: 'Order entry', allowMultiple: false },
  positions: { title: 'Positions', allowMultiple: false },
  orders: { title: 'Orders', allowMultiple: false },
  balance: { title: 'Balance', allowMultiple: false },
  favorites: { title: 'Favourites', allowMultiple: false },
  alerts: { title: 'Alerts', allowMultiple: false },
  scanner: { title: 'Scanner', allowMultiple: false },
};

export const chartDefaults: ChartConfig = { exchange: 'binance', symbol: 'BTCUSDT', interval: '5m', link: null };
