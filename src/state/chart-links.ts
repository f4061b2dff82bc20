import { proxy } from 'valtio/vanilla';
import { z } from 'zod';
import { exchangeIdSchema, type ExchangeId } from '../api/contracts/common';
import { candleIntervalSchema, type CandleInterval } from '../api/contracts/market';
import { chartIndicatorSchema, MAX_CHART_INDICATORS, parseIndicators, type ChartIndicator } from './chart-indicators';
import { EXCHANGE_PAIR_DEFAULTS } from './user-settings-model';

/**
 * The workstation's chart panels as the rest of the UI sees them: which market each chart shows and
 * which colour group links it to others. Panels never import each other, so this store is how the
 * Favourites panel (or the top bar) changes "the active chart", and how a pair change in one linked
 * chart reaches the rest of its group. The layout mirrors each entry into its flexlayout node
 * config, which is what gets saved; this store is the live copy.
 */

/** Link groups by colour (names are Mantine palette colours, so the UI can paint them directly). */
export const LINK_COLORS = ['red', 'green', 'blue', 'yellow', 'violet'] as const;
export const linkColorSchema = z.enum(LINK_COLORS);
export type LinkColor = z.infer<typeof linkColorSchema>;

/** Symbols as exchanges spell them: BTCUSDT, XBTUSD, BTC-USDT-SWAP, 1000PEPEUSDT, XBTUSDT_250926... */
export const chartSymbolSchema = z.string().regex(/^[A-Z0-9][A-Z0-9._:/-]{0,39}$/);

export const chartConfigSchema = z.object({
  exchange: exchangeIdSchema,
  symbol: chartSymbolSchema,
  interval: candleIntervalSchema,
  /** The colour group this chart follows; null = not linked. */
  link: linkColorSchema.nullable(),
  /**
   * Overlay indicators, per chart (not shared by a link group). Optional, so layouts saved before
   * indicators existed read as they are — no layout version step was needed.
   */
  indicators: z.array(chartIndicatorSchema).max(MAX_CHART_INDICATORS).readonly().optional(),
});
export type ChartConfig = z.infer<typeof chartConfigSchema>;

export interface ChartLinksState {
  /** Chart panels by their layout node id. */
  charts: Record<string, ChartConfig>;
  /** The chart the user last worked in: the target of "show this pair" from other panels. */
  activeChartId: string | null;
}

export const chartLinks = proxy<ChartLinksState>({ charts: {}, activeChartId: null });

/**
 * Reads a stored chart config field by field: a bad field takes the fallback's value, the others
 * are kept (a layout saved by an older build must not lose its pairs because one field changed).
 */
export function parseChartConfig(value: unknown, fallback: ChartConfig): ChartConfig {
  const input = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const pick = <K extends keyof ChartConfig>(key: K): ChartConfig[K] => {
    const parsed = chartConfigSchema.shape[key].safeParse(input[key]);
    return parsed.success ? (parsed.data as ChartConfig[K]) : fallback[key];
  };
  const exchange = pick('exchange');
  // A symbol belongs to its exchange: when the exchange itself was unreadable, its symbol is too.
  const symbol = exchangeIdSchema.safeParse(input.exchange).success ? pick('symbol') : fallback.symbol;
  const config: ChartConfig = { exchange, symbol, interval: pick('interval'), link: pick('link') };
  // Entry by entry: one unreadable indicator is dropped, not the list.
  const indicators = parseIndicators(input.indicators);
  if (indicators) config.indicators = indicators;
  return config;
}

export function sameChartConfig(a: ChartConfig | undefined, b: ChartConfig | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.exchange === b.exchange &&
    a.symbol === b.symbol &&
    a.interval === b.interval &&
    a.link === b.link &&
    JSON.stringify(a.indicators ?? []) === JSON.stringify(b.indicators ?? [])
  );
}

/** The chart plus every chart sharing its link colour (just the chart when it is unlinked). */
export function linkedChartIds(charts: Readonly<Record<string, ChartConfig>>, id: string): string[] {
  const chart = charts[id];
  if (!chart) return [];
  if (chart.link === null) return [id];
  return Object.keys(charts).filter((other) => other === id || charts[other].link === chart.link);
}

/** Replaces every entry (a layout was loaded); keeps the active chart when it still exists. */
export function replaceCharts(charts: Record<string, ChartConfig>, activeChartId: string | null = null): void {
  chartLinks.charts = { ...charts };
  const keep = activeChartId ?? chartLinks.activeChartId;
  chartLinks.activeChartId = keep !== null && keep in charts ? keep : (Object.keys(charts)[0] ?? null);
}

/** Adds a chart that appeared in the layout. An existing entry wins: it is the live one. */
export function registerChart(id: string, config: ChartConfig): void {
  if (!(id in chartLinks.charts)) chartLinks.charts[id] = { ...config };
  chartLinks.activeChartId ??= id;
}

export function unregisterChart(id: string): void {
  if (!(id in chartLinks.charts)) return;
  delete chartLinks.charts[id];
  if (chartLinks.activeChartId === id) chartLinks.activeChartId = Object.keys(chartLinks.charts)[0] ?? null;
}

export function setActiveChart(id: string): void {
  if (id in chartLinks.charts && chartLinks.activeChartId !== id) chartLinks.activeChartId = id;
}

/**
 * Shows `symbol` on `exchange` in the chart and every chart linked to it. Returns the ids changed.
 */
export function setChartPair(id: string, exchange: ExchangeId, symbol: string): string[] {
  if (!chartSymbolSchema.safeParse(symbol).success) return [];
  const changed: string[] = [];
  for (const target of linkedChartIds(chartLinks.charts, id)) {
    const chart = chartLinks.charts[target];
    if (chart.exchange === exchange && chart.symbol === symbol) continue;
    chart.exchange = exchange;
    chart.symbol = symbol;
    changed.push(target);
  }
  return changed;
}

/**
 * Switches the chart (and its group) to another exchange, on that exchange's default pair: a symbol
 * does not carry over between exchanges (SPEC §4: switching exchange resets the trading pair).
 */
export function switchChartExchange(id: string, exchange: ExchangeId): string[] {
  const chart = chartLinks.charts[id];
  if (!chart || chart.exchange === exchange) return [];
  return setChartPair(id, exchange, EXCHANGE_PAIR_DEFAULTS[exchange].tradingPair);
}

/** Intervals are per chart, also inside a group: one pair on several timeframes is the point of linking. */
export function setChartTimeframe(id: string, interval: CandleInterval): void {
  const chart = chartLinks.charts[id];
  if (chart && chart.interval !== interval) chart.interval = interval;
}

/**
 * Puts the chart in a colour group (null leaves it). Joining a group that already has charts adopts
 * the group's pair, so the group keeps showing one market.
 */
export function setChartLink(id: string, link: LinkColor | null): void {
  const chart = chartLinks.charts[id];
  if (!chart || chart.link === link) return;
  chart.link = link;
  if (link === null) return;
  const leader = Object.entries(chartLinks.charts).find(([other, c]) => other !== id && c.link === link)?.[1];
  if (leader) {
    chart.exchange = leader.exchange;
    chart.symbol = leader.symbol;
  }
}

/**
 * "Show this pair" from outside the charts (Favourites, the top bar): applies to the active chart and
 * its group. Returns the ids changed, empty when there is no chart to show it in.
 */
export function showPairInActiveChart(exchange: ExchangeId, symbol: string): string[] {
  const id = chartLinks.activeChartId ?? Object.keys(chartLinks.charts)[0];
  return id === undefined ? [] : setChartPair(id, exchange, symbol);
}

/** The config of the active chart, if any. */
export function activeChart(): (ChartConfig & { id: string }) | null {
  const id = chartLinks.activeChartId;
  const chart = id === null ? undefined : chartLinks.charts[id];
  return id !== null && chart ? { id, ...chart } : null;
}

/** Adds an indicator to one chart (false when the chart has the most it may). */
export function addChartIndicator(id: string, indicator: ChartIndicator): boolean {
  const chart = chartLinks.charts[id];
  const list = chart?.indicators ?? [];
  if (!chart || list.length >= MAX_CHART_INDICATORS || list.some((i) => i.id === indicator.id)) return false;
  chart.indicators = [...list, indicator];
  return true;
}

/** Replaces the indicator with the same id (edited parameters or colour). */
export function updateChartIndicator(id: string, indicator: ChartIndicator): void {
  const chart = chartLinks.charts[id];
  if (!chart?.indicators?.some((i) => i.id === indicator.id)) return;
  chart.indicators = chart.indicators.map((i) => (i.id === indicator.id ? indicator : i));
}

export function removeChartIndicator(id: string, indicatorId: string): void {
  const chart = chartLinks.charts[id];
  if (!chart?.indicators?.some((i) => i.id === indicatorId)) return;
  chart.indicators = chart.indicators.filter((i) => i.id !== indicatorId);
}
