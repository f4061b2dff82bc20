import { Loader } from '@mantine/core';
import { memo } from 'react';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import type { ScannerExchangeStatus } from '../../api/contracts/scanner';
import type { ScannerStreamState } from '../../api/scanner/scanner-stream';
import classes from './scanner-panel.module.css';

export interface ScannerStatusLineProps {
  loading: boolean;
  connection: ScannerStreamState;
  shown: number;
  total: number;
  statuses: readonly ScannerExchangeStatus[];
  hasChart: boolean;
}

const label = (s: ScannerExchangeStatus) => (s.state === 'error' ? 'unavailable' : s.state === 'stale' ? 'stale' : s.live ? '● live' : '○ refreshed');
const help = (s: ScannerExchangeStatus) => s.message ?? (s.live ? 'Live: the exchange’s ticker stream' : 'Refreshed every 30 s');

/** "48 of 120 pairs · binance ● live · bybit stale": plain elements, re-rendered on each repaint. */
export const ScannerStatusLine = memo(function ScannerStatusLine({ loading, connection, shown, total, statuses, hasChart }: ScannerStatusLineProps) {
  return (
    <div className={classes.status} data-testid="scanner-status">
      {loading ? (
        <span className={classes.statusItem}>
          <Loader size={10} />
          {connection === 'open' ? 'Loading pairs…' : 'Connecting…'}
        </span>
      ) : (
        <span data-testid="scanner-count">
          {shown} of {total} pairs
        </span>
      )}
      {statuses.map((s) => (
        <span key={s.exchange} className={classes.statusItem} title={help(s)} data-exchange-status={s.exchange} data-state={s.state} data-live={s.live || undefined}>
          {EXCHANGE_DISPLAY_NAMES[s.exchange]} {label(s)}
        </span>
      ))}
      {hasChart ? null : <span>Open a chart to show a pair in it.</span>}
    </div>
  );
});
