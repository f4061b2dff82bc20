import { dec, toNumber } from '../../api/contracts/decimal';
import { Box, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useSnapshot } from 'valtio';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import { useInstrument } from '../../api/exchanges/get-exchange-info';
import { useFeatureFlagMap } from '../../api/feature-flags/get-feature-flag-map';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import type { ChartOptions, CrosshairInfo, Drawing } from '../../engine';
import { newIndicator, type ChartIndicator } from '../../state/chart-indicators';
import { addChartIndicator, chartLinks, removeChartIndicator, setActiveChart, updateChartIndicator } from '../../state/chart-links';
import { drawingSettings } from '../../state/drawing-settings';
import { userSettings } from '../../state/user-settings';
import { ChartHeader } from '../shared/chart-header';
import type { PanelProps } from '../shared/panel-props';
import { alertTargets } from './drawing-alerts';
import { ChartContextMenu, type ContextMenuPoint } from './chart-context-menu';
import { commitDrawingPatch } from './drawing-records';
import { DrawingToolbar } from './drawing-toolbar';
import { IndicatorDialog } from './indicator-dialog';
import { IndicatorLegend } from './indicator-legend';
import { IndicatorMenu } from './indicator-menu';
import { useActiveChartInstrument } from './use-active-chart-instrument';
import { prepareLimitOrder } from '../../state/order-draft';
import { useChartTradeLines } from './use-chart-trade-lines';
import { useChartAlerts } from './use-chart-alerts';
import { useChartDrawings, useLocalFibImport } from './use-chart-drawings';
import { useChartEngine } from './use-chart-engine';
import { useChartFeed } from './use-chart-feed';
import { useChartIndicators } from './use-chart-indicators';

// The panel shows its own loading / empty / error message (with Retry): the engine draws none.
const ENGINE_OPTIONS: ChartOptions = { toolOptions: { magnet: true }, emptyText: '' };
const NO_INDICATORS: readonly ChartIndicator[] = [];

const newId = () => globalThis.crypto?.randomUUID?.() ?? `d-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

const isTyping = (target: EventTarget | null) =>
  target instanceof Element && (target.closest('input, textarea, select, [contenteditable="true"]') !== null);

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
 * `data-last-price`, `data-bars`, `data-drawings`, `data-alert-lines`, `data-trade-lines`, `data-crosshair-price` — written directly to the
 * element for the per-tick ones, so a live price never re-renders React.
 */
export function ChartPanel({ node }: PanelProps) {
  const id = node.getId();
  const chart = useSnapshot(chartLinks).charts[id];
  const exchange = chart?.exchange ?? 'binance';
  const symbol = chart?.symbol ?? 'BTCUSDT';
  const interval = chart?.interval ?? '5m';
  const { useTestnet } = useSnapshot(userSettings);
  const { data: flags } = useFeatureFlagMap();
  const drawingOn = flags?.FF_ENABLE_DRAWING_TOOL === true;
  const fibOn = drawingOn && flags?.FF_ENABLE_FIBONACCI_TOOL === true;
  const alertsOn = flags?.FF_ENABLE_ALERTS === true;
  const market = useMemo(() => ({ exchange, symbol }), [exchange, symbol]);

  const hostRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const { engine, failure } = useChartEngine(hostRef, node.getDocument(), ENGINE_OPTIONS);

  const instrument = useInstrument(exchange, symbol, useTestnet);
  const tickSize = useRef(0);
  tickSize.current = instrument ? toNumber(dec(instrument.tickSize)) : 0;
  const precision = instrument?.precision ?? 2;
  useEffect(() => {
    // The engine draws with numbers (DESIGN §8): the tick converts here, at its edge.
    if (engine && instrument) engine.setInstrument({ tickSize: toNumber(dec(instrument.tickSize)), precision: instrument.precision });
  }, [engine, instrument]);
  useActiveChartInstrument(id, instrument);

  // Per-tick values live in refs and data attributes, not in React state.
  const livePrice = useRef<number | undefined>(undefined);
  const setAttr = (name: string, value: string | null) => {
    const el = bodyRef.current;
    if (!el) return;
    if (value === null) el.removeAttribute(name);
    else el.setAttribute(name, value);
  };
  useEffect(() => {
    livePrice.current = undefined;
    setAttr('data-last-price', null);
    setAttr('data-bars', '0');
  }, [exchange, symbol, interval, useTestnet]);
  const indicators = chart?.indicators ?? NO_INDICATORS;
  const { refresh: refreshIndicators, bindValue } = useChartIndicators(engine, indicators, precision);
  const [editing, setEditing] = useState<{ indicator: ChartIndicator; isNew: boolean } | null>(null);
  const { status, retry } = useChartFeed(
    engine,
    { exchange, symbol, interval, testnet: useTestnet },
    {
      onPrice: (price) => {
        livePrice.current = price;
        setAttr('data-last-price', String(price));
        refreshIndicators();
      },
      onBars: (bars) => {
        setAttr('data-bars', String(bars));
        refreshIndicators();
      },
    },
  );

  const drawingCount = useChartDrawings(engine, market, { drawing: drawingOn, fib: fibOn });
  useLocalFibImport();
  const { lines: tradeLines, dialog: tradeLineDialog } = useChartTradeLines(engine, market, tickSize, instrument);
  const { createAt, lineCount } = useChartAlerts(engine, market, alertsOn, livePrice, tickSize, tradeLines);

  const crosshair = useRef<CrosshairInfo | null>(null);
  useEffect(() => {
    if (!engine) return;
    return engine.on('crosshair', (info) => {
      crosshair.current = info;
      setAttr('data-crosshair-price', info ? String(info.price) : null);
    });
  }, [engine]);

  // Alt+A: an alert at the crosshair price of the chart under the pointer (whatever has focus).
  const win = node.getWindow();
  useEffect(() => {
    if (!win || !alertsOn) return;
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyA' || isTyping(e.target)) return;
      const price = crosshair.current?.price;
      if (price === undefined) return;
      e.preventDefault();
      createAt(price);
    };
    win.addEventListener('keydown', onKey);
    return () => win.removeEventListener('keydown', onKey);
  }, [win, alertsOn, createAt]);

  // flexlayout reports size changes of the tab (splitter drags, popouts) besides the ResizeObserver.
  useEffect(() => {
    if (!engine) return;
    node.setEventListener('resize', () => requestAnimationFrame(() => engine.resize()));
    return () => node.removeEventListener('resize');
  }, [engine, node]);

  const [menu, setMenu] = useState<ContextMenuPoint | null>(null);
  // The drawing selected when the menu opened: an alert can be tied to it (it then follows the drawing).
  const [menuDrawing, setMenuDrawing] = useState<Drawing | null>(null);
  const onContextMenu = useCallback(
    (e: ReactMouseEvent<HTMLDivElement>) => {
      e.preventDefault();
      const box = e.currentTarget.getBoundingClientRect();
      const selected = engine?.getSelectedDrawingId() ?? null;
      setMenuDrawing(selected ? (engine?.getDrawings().find((d) => d.id === selected) ?? null) : null);
      setMenu({ x: e.clientX - box.left, y: e.clientY - box.top, price: crosshair.current?.price ?? null });
    },
    [engine],
  );
  // SPEC tradeMode: Shift+click prepares a limit order at that price in Order entry (buy below the last price, sell above).
  const onClickCapture = useCallback((e: ReactMouseEvent<HTMLDivElement>) => {
    if (!e.shiftKey || !userSettings.tradeMode) return;
    const price = crosshair.current?.price;
    const last = livePrice.current;
    if (price === undefined || last === undefined) return;
    const tick = tickSize.current > 0 ? tickSize.current : 0;
    const snapped = tick > 0 ? (Math.round(price / tick) * tick).toFixed(Math.max(0, -Math.floor(Math.log10(tick) + 1e-9))) : String(price);
    prepareLimitOrder(snapped, price < last ? 'BUY' : 'SELL');
  }, []);
  const { mutate: saveSettings } = useUpdateServerSettings();
  const addLineAt = (price: number) =>
    saveSettings((s) => commitDrawingPatch(s, market, { id: newId(), kind: 'line', price, color: drawingSettings.color, symbol }));

  const loading = status === 'loading' || (!engine && !failure);
  return (
    <Stack gap={0} h="100%" onPointerDownCapture={() => setActiveChart(id)}>
      <ChartHeader chartId={id}>
        <IndicatorMenu
          indicators={indicators}
          onAdd={(kind) => setEditing({ indicator: newIndicator(kind, indicators), isNew: true })}
          onEdit={(indicator) => setEditing({ indicator, isNew: false })}
        />
      </ChartHeader>
      <Group gap={0} wrap="nowrap" align="stretch" style={{ flex: 1, minHeight: 0, borderTop: '1px solid var(--mantine-color-dark-4)' }}>
        {drawingOn ? <DrawingToolbar fibEnabled={fibOn} /> : null}
        <Box
          ref={bodyRef}
          data-testid="chart-body"
          data-status={failure ? 'error' : status}
          data-drawings={drawingCount}
          data-alert-lines={lineCount}
          data-trade-lines={tradeLines.length}
          pos="relative"
          style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}
          onContextMenu={onContextMenu}
          onClickCapture={onClickCapture}
        >
          <div ref={hostRef} data-testid="chart-canvas" style={{ position: 'absolute', inset: 0 }} />
          <Stack gap={0} pos="absolute" top={22} left={8} style={{ pointerEvents: 'none', zIndex: 1 }}>
            <Text size="xs" c="dimmed" data-testid="chart-legend">
              {symbol} · {interval} · {EXCHANGE_DISPLAY_NAMES[exchange]}
              {useTestnet ? ' · testnet' : ''}
            </Text>
            <IndicatorLegend
              indicators={indicators}
              bindValue={bindValue}
              onEdit={(indicator) => setEditing({ indicator, isNew: false })}
              onRemove={(indicator) => removeChartIndicator(id, indicator.id)}
            />
          </Stack>
          {loading ? (
            <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }} data-testid="chart-loading">
              <Loader size="sm" aria-label={`Loading ${symbol}`} />
            </Center>
          ) : null}
          {failure || status === 'error' || status === 'empty' ? (
            <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }} data-testid="chart-message">
              <Stack gap={8} align="center" style={{ pointerEvents: 'auto' }}>
                <Text size="sm" c="dimmed">
                  {failure
                    ? 'The chart could not start in this browser (WebGL is unavailable).'
                    : status === 'empty'
                      ? `No candles for ${symbol} on ${EXCHANGE_DISPLAY_NAMES[exchange]} yet.`
                      : `Candles for ${symbol} could not be loaded.`}
                </Text>
                {failure ? null : (
                  <Button size="compact-sm" variant="default" onClick={retry}>
                    Retry
                  </Button>
                )}
              </Stack>
            </Center>
          ) : null}
          <ChartContextMenu
            at={menu}
            priceLabel={menu?.price != null ? menu.price.toLocaleString('en-US', { minimumFractionDigits: precision, maximumFractionDigits: precision }) : ''}
            onClose={() => setMenu(null)}
            onAddAlert={alertsOn ? () => menu?.price != null && createAt(menu.price) : undefined}
            onAddLine={drawingOn ? () => menu?.price != null && addLineAt(menu.price) : undefined}
            drawingAlerts={alertsOn && menuDrawing ? alertTargets(menuDrawing).map((t) => ({ label: t.label, onClick: () => createAt(t.price, t.link) })) : []}
            onResetView={() => engine?.resetView()}
          />
        </Box>
      </Group>
      {editing ? (
        <IndicatorDialog
          key={editing.indicator.id}
          indicator={editing.indicator}
          isNew={editing.isNew}
          onClose={() => setEditing(null)}
          onRemove={() => {
            removeChartIndicator(id, editing.indicator.id);
            setEditing(null);
          }}
          onSave={(indicator) => {
            if (editing.isNew) addChartIndicator(id, indicator);
            else updateChartIndicator(id, indicator);
            setEditing(null);
          }}
        />
      ) : null}
      {tradeLineDialog}
    </Stack>
  );
}
