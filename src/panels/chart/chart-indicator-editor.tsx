import { useCallback, useState } from 'react';
import type { IndicatorKind } from '../../engine';
import { newIndicator, type ChartIndicator } from '../../state/chart-indicators';
import { addChartIndicator, removeChartIndicator, updateChartIndicator } from '../../state/chart-links';
import { IndicatorDialog } from './indicator-dialog';

/** The indicator being added or edited in the dialog. */
export interface IndicatorEditing {
  indicator: ChartIndicator;
  isNew: boolean;
}

/** Which indicator the dialog edits (null: closed); `add` starts a new one with its defaults. */
export function useIndicatorEditing(indicators: readonly ChartIndicator[]) {
  const [editing, setEditing] = useState<IndicatorEditing | null>(null);
  // Stable callbacks: the chart's header (which holds the Indicators menu) is memoised on them.
  const add = useCallback((kind: IndicatorKind) => setEditing({ indicator: newIndicator(kind, indicators), isNew: true }), [indicators]);
  const edit = useCallback((indicator: ChartIndicator) => setEditing({ indicator, isNew: false }), []);
  const close = useCallback(() => setEditing(null), []);
  return { editing, add, edit, close };
}

/** The indicator dialog for one chart: saves, adds or removes in the chart's config (`chartLinks`). */
export function ChartIndicatorEditor({ chartId, editing, onClose }: { chartId: string; editing: IndicatorEditing; onClose: () => void }) {
  return (
    <IndicatorDialog
      key={editing.indicator.id}
      indicator={editing.indicator}
      isNew={editing.isNew}
      onClose={onClose}
      onRemove={() => {
        removeChartIndicator(chartId, editing.indicator.id);
        onClose();
      }}
      onSave={(indicator) => {
        if (editing.isNew) addChartIndicator(chartId, indicator);
        else updateChartIndicator(chartId, indicator);
        onClose();
      }}
    />
  );
}
