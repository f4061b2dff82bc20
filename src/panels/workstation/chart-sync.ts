import { Actions, TabNode, type Action, type Model } from 'flexlayout-react';
import { snapshot, subscribe } from 'valtio/vanilla';
import {
  chartLinks,
  parseChartConfig,
  registerChart,
  replaceCharts,
  setActiveChart,
  setChartPair,
  unregisterChart,
  type ChartConfig,
} from '../../state/chart-links';
import { setExchange, setTradingPair, userSettings } from '../../state/user-settings';
import { CHART_PANEL, chartConfigsOf, writeChartConfigs } from './layout-model';

/**
 * Keeps three things in step for one model:
 * - the `chartLinks` store holds exactly the model's chart panels (added, closed, popped out...);
 * - a chart change made through the store (a header picker, Favourites, a linked chart) is written
 *   into the chart's node config, which is what the layout saves;
 * - the chart the user works in (selected in the active tabset, or clicked) is the store's active one.
 * Returns the function that stops it.
 */
export function connectChartsToModel(model: Model, fallback: ChartConfig): () => void {
  const initial = chartConfigsOf(model, fallback);
  const selected = model.getActiveTabset()?.getSelectedNode();
  replaceCharts(initial, selected?.getComponent() === CHART_PANEL ? selected.getId() : null);

  // Only a selection by the user makes a chart active; other changes (a config write, a resize) must
  // not take "active" away from the chart the user last clicked into.
  const selecting = new Set([Actions.SELECT_TAB, Actions.SET_ACTIVE_TABSET, Actions.ADD_TAB, Actions.MOVE_NODE]);
  const reconcile = (action: Action) => {
    const present = new Set<string>();
    model.visitNodes((node) => {
      if (!(node instanceof TabNode) || node.getComponent() !== CHART_PANEL) return;
      present.add(node.getId());
      registerChart(node.getId(), parseChartConfig(node.getConfig(), fallback));
    });
    for (const id of Object.keys(chartLinks.charts)) if (!present.has(id)) unregisterChart(id);
    if (!selecting.has(action.type)) return;
    const active = model.getActiveTabset()?.getSelectedNode();
    if (active?.getComponent() === CHART_PANEL) setActiveChart(active.getId());
  };

  model.addChangeListener(reconcile);
  const stop = subscribe(chartLinks, () => writeChartConfigs(model, snapshot(chartLinks).charts));
  return () => {
    model.removeChangeListener(reconcile);
    stop();
  };
}

/**
 * The active chart and the user settings' trading market (which the top bar's exchange picker and
 * the order panels use) stay one market: a chart becoming active, or changing pair, sets the trading
 * pair; choosing an exchange in the top bar moves the active chart (and its group) to it. On start
 * the restored layout wins, so a layout opens exactly as it was saved.
 */
export function connectActiveChartToUserSettings(): () => void {
  const pushChart = () => {
    const { activeChartId, charts } = snapshot(chartLinks);
    const chart = activeChartId ? charts[activeChartId] : undefined;
    if (!chart) return;
    if (userSettings.exchangeName !== chart.exchange) setExchange(chart.exchange);
    if (userSettings.tradingPair !== chart.symbol) setTradingPair(chart.symbol);
  };
  let lastExchange = userSettings.exchangeName;
  let lastPair = userSettings.tradingPair;
  const pullSettings = () => {
    const { exchangeName, tradingPair } = userSettings;
    if (exchangeName === lastExchange && tradingPair === lastPair) return;
    lastExchange = exchangeName;
    lastPair = tradingPair;
    const id = chartLinks.activeChartId;
    const chart = id ? chartLinks.charts[id] : undefined;
    if (id && chart && (chart.exchange !== exchangeName || chart.symbol !== tradingPair)) setChartPair(id, exchangeName, tradingPair);
  };
  pushChart();
  lastExchange = userSettings.exchangeName;
  lastPair = userSettings.tradingPair;
  const stopCharts = subscribe(chartLinks, pushChart);
  const stopSettings = subscribe(userSettings, pullSettings);
  return () => {
    stopCharts();
    stopSettings();
  };
}
