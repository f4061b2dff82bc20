import { Group, Select } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import { useAllTradingPairs } from '../../api/exchanges/get-all-trading-pairs';
import { useExchangeInfo } from '../../api/exchanges/get-exchange-info';
import { chartLinks, setChartLink, setChartPair, setChartTimeframe, switchChartExchange } from '../../state/chart-links';
import { EXCHANGE_PAIR_DEFAULTS, userSettings } from '../../state/user-settings';
import { useEnabledExchanges } from '../../api/feature-flags/use-enabled-exchanges';
import { FavoritePairToggle } from './favorite-pair-toggle';
import { IntervalPicker } from './interval-picker';
import { LinkColorMenu } from './link-color-menu';
import { PairInput } from './pair-input';
import { productSymbol } from './product-symbol';
import { useFavoritePairs } from './use-favorite-pairs';

/**
 * The market controls of a chart panel: link colour, exchange, pair, favourite star, interval. They
 * act on the chart's entry in the `chartLinks` store, so a change reaches the linked charts and is
 * saved with the layout. The chart panel renders this above its canvas; `children` (the chart's
 * own controls, e.g. its Indicators menu) follow the interval.
 */
export function ChartHeader({ chartId, children }: { chartId: string; children?: ReactNode }) {
  const chart = useSnapshot(chartLinks).charts[chartId];
  const exchanges = useEnabledExchanges();
  const exchange = chart?.exchange ?? 'binance';
  const { favorites } = useFavoritePairs();
  const { data: pairs } = useAllTradingPairs();
  // The exchange's instruments on the user's network (testnet lists differ); the chart reads its
  // tick size from the same cached answer.
  const { useTestnet } = useSnapshot(userSettings);
  const { data: instruments } = useExchangeInfo(exchange, useTestnet);

  // Favourites first, then the exchange's listing (alphabetical): the pairs one switches between most.
  const suggestions = useMemo(() => {
    const first = favorites.filter((f) => f.exchange === exchange).map((f) => f.symbol);
    const listed = instruments?.length
      ? instruments.map((i) => i.symbol).sort()
      : (pairs ?? []).filter((p) => p.exchange === exchange).map((p) => p.symbol).sort();
    return [...new Set([...first, EXCHANGE_PAIR_DEFAULTS[exchange].tradingPair, ...listed])];
  }, [favorites, pairs, instruments, exchange]);

  if (!chart) return null;
  // A chart saved on an exchange that is now turned off keeps showing it, but offers no way back to it.
  const exchangeOptions = exchanges.includes(chart.exchange) ? exchanges : [...exchanges, chart.exchange];

  return (
    <Group gap={6} px={6} py={4} wrap="nowrap" data-testid="chart-header" style={{ overflow: 'hidden', flexShrink: 0 }}>
      <LinkColorMenu value={chart.link} onChange={(color) => setChartLink(chartId, color)} />
      <Select
        aria-label="Exchange"
        size="xs"
        w={96}
        allowDeselect={false}
        data={exchangeOptions.map((id) => ({ value: id, label: EXCHANGE_DISPLAY_NAMES[id] }))}
        value={chart.exchange}
        onChange={(next) => {
          if (next) switchChartExchange(chartId, next as ExchangeId);
        }}
      />
      <PairInput value={chart.symbol} suggestions={suggestions} onCommit={(symbol) => setChartPair(chartId, chart.exchange, productSymbol(symbol, instruments))} />
      <FavoritePairToggle exchange={chart.exchange} symbol={chart.symbol} />
      <IntervalPicker value={chart.interval} onChange={(interval) => setChartTimeframe(chartId, interval)} />
      {children}
    </Group>
  );
}
