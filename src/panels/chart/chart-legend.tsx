import { Stack, Text } from '@mantine/core';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import { IndicatorLegend, type IndicatorLegendProps } from './indicator-legend';
import type { ChartMarket } from './use-chart-market';

export type ChartLegendProps = Pick<ChartMarket, 'exchange' | 'symbol' | 'interval' | 'useTestnet'> & IndicatorLegendProps;

/** Top left over the canvas: pair · interval · exchange (· testnet), then a row per indicator. */
export function ChartLegend({ exchange, symbol, interval, useTestnet, indicators, bindValue, onEdit, onRemove }: ChartLegendProps) {
  return (
    <Stack gap={0} pos="absolute" top={22} left={8} style={{ pointerEvents: 'none', zIndex: 1 }}>
      <Text size="xs" c="dimmed" data-testid="chart-legend">
        {symbol} · {interval} · {EXCHANGE_DISPLAY_NAMES[exchange]}
        {useTestnet ? ' · testnet' : ''}
      </Text>
      <IndicatorLegend indicators={indicators} bindValue={bindValue} onEdit={onEdit} onRemove={onRemove} />
    </Stack>
  );
}
