import { Box, Group, Stack } from '@mantine/core';
import { useMemo, useRef } from 'react';
import type { ChartOptions } from '../../engine';
import { removeChartIndicator, setActiveChart } from '../../state/chart-links';
import { ChartHeader } from '../shared/chart-header';
import type { PanelProps } from '../shared/panel-props';
import { ChartBodyMenu } from './chart-body-menu';
import { ChartIndicatorEditor, useIndicatorEditing } from './chart-indicator-editor';
import { ChartLegend } from './chart-legend';
import { ChartStatus } from './chart-status';
import { DrawingToolbar } from './drawing-toolbar';
import { IndicatorMenu } from './indicator-menu';
import { useChartAlerts } from './use-chart-alerts';
import { useChartDrawings, useLocalFibImport } from './use-chart-drawings';
import { useChartEngine, useEngineResize } from './use-chart-engine';
import { useAlertHotkey, useChartCrosshair, useChartMenu, useShiftClickOrder } from './use-chart-interactions';
import { useChartLive } from './use-chart-live';
import { useChartFlags, useChartInstrument, useChartMarket } from './use-chart-market';
import { useChartTradeLines, useOffscreenLinesAttr } from './use-chart-trade-lines';
import { PositionCard } from './position-card';
import { usePositionExit } from './use-position-exit';
import { usePositionTool } from './use-position-tool';

// The panel shows its own loading / empty / error message (with Retry): the engine draws none.
const ENGINE_OPTIONS: ChartOptions = { toolOptions: { magnet: true }, emptyText: '' };

/**
 * The chart panel: `ChartHeader` (exchange, pair, favourite, interval, link group) over the engine
 * canvas, with the drawing toolbar on its left when drawing is on. Here — and only here — the
 * engine meets the stores and the server data (STYLE pattern 7): candles through the market
 * adapters (`useChartFeed`), drawings through the server settings (`useChartDrawings`), alerts as
 * draggable lines (`useChartAlerts`), the instrument's tick size from exchange-info, overlay
 * indicators from the chart's config in the layout (`useChartIndicators`, edited in the header's
 * Indicators menu and the legend).
 *
 * Test hooks on `[data-testid=chart-body]`: `data-status` (idle|loading|ready|empty|error),
 * `data-last-price`, `data-bars`, `data-drawings`, `data-alert-lines`, `data-trade-lines`, `data-offscreen-lines`, `data-crosshair-price` — written directly to the
 * element for the per-tick ones, so a live price never re-renders React.
 */
export function ChartPanel({ node }: PanelProps) {
  const id = node.getId();
  const view = useChartMarket(id);
  const { drawingOn, fibOn, alertsOn } = useChartFlags();
  const hostRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const { engine, failure } = useChartEngine(hostRef, node.getDocument(), ENGINE_OPTIONS);
  const { instrument, tickSize, precision } = useChartInstrument(engine, id, view);
  const { livePrice, status, retry, bindValue } = useChartLive(engine, bodyRef, view, precision);
  const editor = useIndicatorEditing(view.indicators);
  const drawingCount = useChartDrawings(engine, view.market, { drawing: drawingOn, fib: fibOn });
  useLocalFibImport();
  const { lines: tradeLines, dialog: tradeLineDialog, redraw: redrawTradeLines } = useChartTradeLines(engine, view.market, tickSize, instrument);
  const positionExitDialog = usePositionExit(engine, view.market, tickSize, redrawTradeLines);
  // After useChartDrawings: its tool effect runs first, so the position tool wins a same-click switch.
  const positionTool = usePositionTool(engine, view.market, instrument);
  const { createAt, lineCount } = useChartAlerts(engine, view.market, alertsOn, livePrice, tickSize, tradeLines);
  const crosshair = useChartCrosshair(engine, bodyRef);
  useOffscreenLinesAttr(engine, bodyRef);
  useAlertHotkey(node.getWindow(), alertsOn, crosshair, createAt);
  useEngineResize(engine, node);
  const menu = useChartMenu(engine, crosshair);
  const onClickCapture = useShiftClickOrder(crosshair, livePrice, tickSize);
  // The same element while its inputs stand: the panel re-renders on every order and position change (its trade
  // lines), and the header (pair search, interval, menus) has nothing to redraw then (issue 25: click → row).
  const header = useMemo(
    () => (
      <ChartHeader chartId={id}>
        <IndicatorMenu indicators={view.indicators} onAdd={editor.add} onEdit={editor.edit} />
      </ChartHeader>
    ),
    [id, view.indicators, editor.add, editor.edit],
  );

  return (
    <Stack gap={0} h="100%" onPointerDownCapture={() => setActiveChart(id)}>
      {header}
      <Group gap={0} wrap="nowrap" align="stretch" style={{ flex: 1, minHeight: 0, borderTop: '1px solid var(--mantine-color-dark-4)' }}>
        {drawingOn ? <DrawingToolbar fibEnabled={fibOn} position={positionTool} /> : null}
        <Box
          ref={bodyRef}
          data-testid="chart-body"
          data-status={failure ? 'error' : status}
          data-drawings={drawingCount}
          data-alert-lines={lineCount}
          data-trade-lines={tradeLines.length}
          pos="relative"
          style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}
          onContextMenu={menu.onContextMenu}
          onClickCapture={onClickCapture}
        >
          <div ref={hostRef} data-testid="chart-canvas" style={{ position: 'absolute', inset: 0 }} />
          <ChartLegend
            exchange={view.exchange}
            symbol={view.symbol}
            interval={view.interval}
            useTestnet={view.useTestnet}
            indicators={view.indicators}
            bindValue={bindValue}
            onEdit={editor.edit}
            onRemove={(indicator) => removeChartIndicator(id, indicator.id)}
          />
          <ChartStatus exchange={view.exchange} symbol={view.symbol} status={status} starting={!engine && !failure} failure={failure} onRetry={retry} />
          <PositionCard tool={positionTool} symbol={view.symbol} />
          <ChartBodyMenu menu={menu} engine={engine} market={view.market} precision={precision} alertsOn={alertsOn} drawingOn={drawingOn} createAt={createAt} />
        </Box>
      </Group>
      {editor.editing ? <ChartIndicatorEditor chartId={id} editing={editor.editing} onClose={editor.close} /> : null}
      {tradeLineDialog}
      {positionExitDialog}
    </Stack>
  );
}
