import { ActionIcon, Group, Text } from '@mantine/core';
import { IconSettings, IconX } from '@tabler/icons-react';
import { indicatorLabel, type ChartIndicator } from '../../state/chart-indicators';

export interface IndicatorLegendProps {
  indicators: readonly ChartIndicator[];
  /** Ref for the element that shows an indicator's values (written per tick by `useChartIndicators`). */
  bindValue: (id: string) => (el: HTMLElement | null) => void;
  onEdit: (indicator: ChartIndicator) => void;
  onRemove: (indicator: ChartIndicator) => void;
}

/**
 * One row per indicator under the chart's title: its name in its colour, its value at the crosshair
 * (the last bar without one), and buttons to edit or remove it. The rows sit over the canvas, so
 * only the buttons take the pointer; the chart keeps panning under the text.
 */
export function IndicatorLegend({ indicators, bindValue, onEdit, onRemove }: IndicatorLegendProps) {
  return indicators.map((i) => {
    const label = indicatorLabel(i);
    return (
      <Group key={i.id} gap={6} wrap="nowrap" data-testid="chart-indicator" data-indicator-id={i.id} className="chart-indicator-row">
        <Text size="xs" fw={600} style={{ color: i.color }}>
          {label}
        </Text>
        <Text size="xs" c="gray.4" ref={bindValue(i.id)} data-testid="chart-indicator-value" style={{ fontVariantNumeric: 'tabular-nums' }} />
        <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Edit ${label}`} onClick={() => onEdit(i)} style={{ pointerEvents: 'auto' }}>
          <IconSettings size={12} />
        </ActionIcon>
        <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Remove ${label}`} onClick={() => onRemove(i)} style={{ pointerEvents: 'auto' }}>
          <IconX size={12} />
        </ActionIcon>
      </Group>
    );
  });
}
