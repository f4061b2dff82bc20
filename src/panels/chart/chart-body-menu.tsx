import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import type { ChartEngine } from '../../engine';
import { drawingSettings } from '../../state/drawing-settings';
import { ChartContextMenu } from './chart-context-menu';
import { alertTargets } from './drawing-alerts';
import { commitDrawingPatch, type Market } from './drawing-records';
import type { ChartMenuState } from './use-chart-interactions';

const newId = () => globalThis.crypto?.randomUUID?.() ?? `d-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export interface ChartBodyMenuProps {
  menu: ChartMenuState;
  engine: ChartEngine | null;
  market: Market;
  /** The instrument's price precision, for the price in the menu's items. */
  precision: number;
  alertsOn: boolean;
  drawingOn: boolean;
  createAt: (price: number, drawingId?: string) => boolean;
}

/**
 * The chart's right-click menu wired to the chart: an alert (alone or tied to the selected drawing)
 * or a horizontal line at the price under the pointer — the line saved in the server settings — and
 * reset view.
 */
export function ChartBodyMenu({ menu, engine, market, precision, alertsOn, drawingOn, createAt }: ChartBodyMenuProps) {
  const { mutate: saveSettings } = useUpdateServerSettings();
  const addLineAt = (price: number) =>
    saveSettings((s) => commitDrawingPatch(s, market, { id: newId(), kind: 'line', price, color: drawingSettings.color, symbol: market.symbol }));
  const { at, drawing } = menu;

  return (
    <ChartContextMenu
      at={at}
      priceLabel={at?.price != null ? at.price.toLocaleString('en-US', { minimumFractionDigits: precision, maximumFractionDigits: precision }) : ''}
      onClose={menu.close}
      onAddAlert={alertsOn ? () => at?.price != null && createAt(at.price) : undefined}
      onAddLine={drawingOn ? () => at?.price != null && addLineAt(at.price) : undefined}
      drawingAlerts={alertsOn && drawing ? alertTargets(drawing).map((t) => ({ label: t.label, onClick: () => createAt(t.price, t.link) })) : []}
      onResetView={() => engine?.resetView()}
    />
  );
}
