import { Group } from '@mantine/core';
import { memo, useCallback, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import type { ScannerSortColumn, ScannerView } from '../../api/contracts/scanner';
import { useEnabledExchanges } from '../../api/feature-flags/use-enabled-exchanges';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import { chartLinks, showPairInActiveChart } from '../../state/chart-links';
import { PanelMessage } from '../shared/panel-message';
import type { PanelProps } from '../shared/panel-props';
import { useFavoritePairs } from '../shared/use-favorite-pairs';
import { rowKey, type BookRow } from './scanner-book';
import { SCANNER_COLUMNS } from './scanner-columns';
import { ScannerFilters } from './scanner-filters';
import { withoutPreset, withPreset } from './scanner-presets';
import { ScannerPresetsMenu } from './scanner-presets-menu';
import { ScannerStatusLine } from './scanner-status-line';
import { ScannerTable } from './scanner-table';
import { watchedExchanges } from './scanner-view';
import { useScannerFeed } from './use-scanner-feed';
import { useBookSummary, useHeldOrder } from './use-scanner-rows';
import { useScannerView } from './use-scanner-view';
import classes from './scanner-panel.module.css';

/**
 * The scanner (issue 14): every perpetual of the enabled exchanges, live from the server's
 * `/v1/scanner/stream`, sortable by any column, filtered, with presets in the server settings.
 * A click shows the pair in the active chart (and its linked group); the star toggles a favourite.
 * The workstation hides it from "Add panel" and says it is turned off while FF_ENABLE_SCANNER is
 * off; the server closing the stream with 403 (turned off meanwhile) says the same.
 *
 * Each repaint (a few a second) re-renders this component and the table's shell only: the toolbar
 * and status line are memoised, and the rows are written into the table's slots directly.
 */
export function ScannerPanel({ node }: PanelProps) {
  const [view, updateView, replaceView] = useScannerView(node);
  const enabled = useEnabledList();
  const watched = useMemo(() => watchedExchanges(view, enabled), [view, enabled]);
  const { book, generation, connection, refused } = useScannerFeed(watched);
  const { favorites, toggle } = useFavoritePairs();
  const { data: settings } = useServerSettings();
  const { charts, activeChartId } = useSnapshot(chartLinks);
  const active = activeChartId ? charts[activeChartId] : undefined;
  const favoriteKeys = useMemo(() => new Set(favorites.map((f) => rowKey(f.exchange, f.symbol))), [favorites]);
  const { rows, setHovered } = useHeldOrder(book, generation, view, watched, favoriteKeys);
  const { quotes, total, statuses } = useBookSummary(book, watched);
  const actions = useScannerActions(view, updateView, toggle);

  if (refused?.status === 403) {
    return <PanelMessage title="Scanner is turned off">An administrator has turned this feature off.</PanelMessage>;
  }
  if (refused) return <PanelMessage title="The scanner is not available">{refused.message}</PanelMessage>;
  const loading = statuses.length === 0;

  return (
    <div className={classes.root} data-testid="scanner-panel" data-generation={generation}>
      <ScannerToolbar
        view={view}
        onChange={updateView}
        onApply={replaceView}
        enabled={enabled}
        quotes={quotes}
        presets={settings?.scannerPresets}
        onSavePreset={actions.onSavePreset}
        onDeletePreset={actions.onDeletePreset}
      />
      <ScannerTable
        rows={rows}
        generation={generation}
        sort={view.sort}
        direction={view.direction}
        onSort={actions.onSort}
        favorites={favoriteKeys}
        activeKey={active ? rowKey(active.exchange, active.symbol) : null}
        onOpen={actions.onOpen}
        onToggleFavorite={actions.onToggleFavorite}
        onHoverChange={setHovered}
        emptyText={loading || rows.length > 0 ? null : emptyText(view)}
      />
      <ScannerStatusLine loading={loading} connection={connection} shown={rows.length} total={total} statuses={statuses} hasChart={Object.keys(charts).length > 0} />
    </div>
  );
}

/** The enabled exchanges, the same array while they stay the same (the feed and the filters key on it). */
function useEnabledList(): ExchangeId[] {
  const enabledList = useEnabledExchanges();
  const enabledKey = enabledList.join(',');
  return useMemo(() => (enabledKey ? (enabledKey.split(',') as ExchangeId[]) : []), [enabledKey]);
}

/** Sort by a header, open a row in the active chart, star it, save and delete presets (in the server settings). */
function useScannerActions(view: ScannerView, updateView: (patch: Partial<ScannerView>) => void, toggle: (pair: { exchange: ExchangeId; symbol: string }) => void) {
  const { mutate: saveSettings } = useUpdateServerSettings();
  const onSort = useCallback(
    (column: ScannerSortColumn) => {
      const first = SCANNER_COLUMNS.find((c) => c.id === column)?.firstDirection ?? 'desc';
      updateView(view.sort === column ? { direction: view.direction === 'asc' ? 'desc' : 'asc' } : { sort: column, direction: first });
    },
    [updateView, view.sort, view.direction],
  );
  const onOpen = useCallback((row: BookRow) => showPairInActiveChart(row.exchange, row.symbol), []);
  const onToggleFavorite = useCallback((row: BookRow) => toggle({ exchange: row.exchange, symbol: row.symbol }), [toggle]);
  const onSavePreset = useCallback((name: string) => saveSettings((s) => ({ scannerPresets: withPreset(s.scannerPresets, name, view) })), [saveSettings, view]);
  const onDeletePreset = useCallback((name: string) => saveSettings((s) => ({ scannerPresets: withoutPreset(s.scannerPresets, name) })), [saveSettings]);
  return { onSort, onOpen, onToggleFavorite, onSavePreset, onDeletePreset };
}

interface ScannerToolbarProps {
  view: ScannerView;
  onChange: (patch: Partial<ScannerView>) => void;
  onApply: (view: ScannerView) => void;
  enabled: readonly ExchangeId[];
  quotes: readonly string[];
  /** Undefined until the server settings have loaded. */
  presets: Record<string, ScannerView> | undefined;
  onSavePreset: (name: string) => void;
  onDeletePreset: (name: string) => void;
}

const NO_PRESETS: Record<string, ScannerView> = {};

/** Presets and filters; memoised, so the repaints of the rows leave them alone. */
const ScannerToolbar = memo(function ScannerToolbar({ view, onChange, onApply, enabled, quotes, presets, onSavePreset, onDeletePreset }: ScannerToolbarProps) {
  return (
    <div className={classes.toolbar}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <ScannerPresetsMenu presets={presets ?? NO_PRESETS} loaded={presets !== undefined} view={view} onApply={onApply} onSave={onSavePreset} onDelete={onDeletePreset} />
        <ScannerFilters view={view} onChange={onChange} enabled={enabled} quotes={quotes} />
      </Group>
    </div>
  );
});

function emptyText(view: ScannerView): string {
  const filtered = view.text || view.quotes.length || view.minVolume !== null || view.minChange !== null || view.maxChange !== null;
  return filtered ? 'No pair matches the filters.' : 'No pairs.';
}
