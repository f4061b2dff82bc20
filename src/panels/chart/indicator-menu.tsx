import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';
import type { IndicatorKind } from '../../engine';
import { INDICATOR_KIND_LABELS, INDICATOR_KINDS, MAX_CHART_INDICATORS, indicatorLabel, type ChartIndicator } from '../../state/chart-indicators';

export interface IndicatorMenuProps {
  indicators: readonly ChartIndicator[];
  onAdd: (kind: IndicatorKind) => void;
  onEdit: (indicator: ChartIndicator) => void;
}

/** The chart header's Indicators button: add one of the four kinds, or pick one of the chart's to edit. */
export function IndicatorMenu({ indicators, onAdd, onEdit }: IndicatorMenuProps) {
  const full = indicators.length >= MAX_CHART_INDICATORS;
  return (
    <Menu position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <Tooltip label="Indicators" withinPortal={false}>
          <ActionIcon variant="subtle" size="sm" color="gray" aria-label="Indicators">
            <IconChartLine size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{full ? `Add indicator (at most ${MAX_CHART_INDICATORS})` : 'Add indicator'}</Menu.Label>
        {INDICATOR_KINDS.map((kind) => (
          <Menu.Item key={kind} disabled={full} onClick={() => onAdd(kind)}>
            {INDICATOR_KIND_LABELS[kind]}
          </Menu.Item>
        ))}
        {indicators.length ? (
          <>
            <Menu.Divider />
            <Menu.Label>On this chart</Menu.Label>
            {indicators.map((i) => (
              <Menu.Item key={i.id} onClick={() => onEdit(i)} style={{ color: i.color }}>
                {indicatorLabel(i)}
              </Menu.Item>
            ))}
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
