import { Group } from '@mantine/core';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import type { ScannerExchangeStatus, ScannerSortColumn, ScannerView } from '../../api/contracts/scanner';
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
import { frozenOrder, orderRows, watchedExchanges } from './scanner-view';
import { useScannerFeed } from './use-scanner-feed';
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
  const enabledList = useEnabledExchanges();
  const enabledKey = enabledList.join(',');
  const enabled = useMemo(() => (enabledKey ? (enabledKey.split(',') as ExchangeId[]) : []), [enabledKey]);
  const watched = useMemo(() => watchedExchanges(view, enabled), [view, enabled]);
  const { book, generation, connection, refused } = useScannerFeed(watched);
  const { favorites, toggle } = useFavoritePairs();
  const { data: settings } = useServerSettings();
  const { mutate: saveSettings } = useUpdateServerSettings();
  const { charts, activeChartId } = useSnapshot(chartLinks);
  const active = activeChartId ? charts[activeChartId] : undefined;
  const [hovered, setHovered] = useState(false);
  const shown = useRef<BookRow[]>([]);

  const favoriteKeys = useMemo(() => new Set(favorites.map((f) => rowKey(f.exchange, f.symbol))), [favorites]);
  const rows = useMemo(() => {
    const input = { rows: book.rows.values(), view, exchanges: watched, favorites: favoriteKeys };
    // While the pointer is over the rows they keep their places (values still tick): a row never
    // slides away from under the pointer about to click it.
    return hovered ? frozenOrder(shown.current, book.rows, input) : orderRows(input);
    // `generation` is the repaint: the book is mutated in place, so it stands for its contents.
  }, [generation, view, watched, favoriteKeys, hovered, book]);
  shown.current = rows;

  const structure = book.structure;
  const quotes = useMemo(() => [...new Set([...book.rows.values()].map((r) => r.quote))].sort(), [book, structure]);
  let total = 0;
  for (const row of book.rows.values()) if (watched.includes(row.exchange)) total += 1;
  const statusList = watched.map((e) => book.statuses.get(e)).filter((s): s is ScannerExchangeStatus => s !== undefined);
  const statusKey = JSON.stringify(statusList);
  // The same list while its contents are the same (the key stands for them): the status line is memoised.
  const statuses = useMemo(() => statusList, [statusKey]);

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
        onSavePreset={onSavePreset}
        onDeletePreset={onDeletePreset}
      />
      <ScannerTable
        rows={rows}
        generation={generation}
        sort={view.sort}
        direction={view.direction}
        onSort={onSort}
        favorites={favoriteKeys}
        activeKey={active ? rowKey(active.exchange, active.symbol) : null}
        onOpen={onOpen}
        onToggleFavorite={onToggleFavorite}
        onHoverChange={setHovered}
        emptyText={loading || rows.length > 0 ? null : emptyText(view)}
      />
      <ScannerStatusLine loading={loading} connection={connection} shown={rows.length} total={total} statuses={statuses} hasChart={Object.keys(charts).length > 0} />
    </div>
  );
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
