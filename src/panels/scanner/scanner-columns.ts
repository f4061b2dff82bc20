import type { ScannerSortColumn } from '../../api/contracts/scanner';

export interface ScannerColumn {
  id: ScannerSortColumn;
  label: string;
  /** Header tooltip: what the number is, in which unit. */
  help: string;
  /** CSS grid track. */
  width: string;
  numeric: boolean;
  /** The direction a first click sorts by (the interesting end first: biggest movers, most volume). */
  firstDirection: 'asc' | 'desc';
}

export const SCANNER_COLUMNS: readonly ScannerColumn[] = [
  { id: 'symbol', label: 'Pair', help: 'The pair as the chart names it', width: 'minmax(104px, 1.4fr)', numeric: false, firstDirection: 'asc' },
  { id: 'exchange', label: 'Exchange', help: 'Exchange', width: '72px', numeric: false, firstDirection: 'asc' },
  { id: 'last', label: 'Last', help: 'Last traded price', width: 'minmax(78px, 1fr)', numeric: true, firstDirection: 'desc' },
  { id: 'changePercent', label: '24h %', help: 'Change over the last 24 hours', width: 'minmax(64px, 0.8fr)', numeric: true, firstDirection: 'desc' },
  { id: 'quoteVolume', label: 'Volume 24h', help: '24 h volume in the quote currency (USDT, USD…)', width: 'minmax(74px, 0.9fr)', numeric: true, firstDirection: 'desc' },
  { id: 'rangePercent', label: 'Range 24h', help: '24 h range: (high − low) ÷ low', width: 'minmax(68px, 0.8fr)', numeric: true, firstDirection: 'desc' },
  { id: 'fundingRate', label: 'Funding', help: 'Current funding rate per funding period', width: 'minmax(76px, 0.9fr)', numeric: true, firstDirection: 'desc' },
  { id: 'nextFundingTime', label: 'Funding in', help: 'Time until the next funding payment', width: 'minmax(72px, 0.8fr)', numeric: true, firstDirection: 'asc' },
  { id: 'openInterest', label: 'Open interest', help: 'Open interest in the quote currency (binance publishes it per pair only: not shown)', width: 'minmax(78px, 0.9fr)', numeric: true, firstDirection: 'desc' },
  { id: 'atrPercent', label: 'ATR 1h', help: 'Volatility: average true range of the last 14 hourly candles ÷ price', width: 'minmax(60px, 0.7fr)', numeric: true, firstDirection: 'desc' },
];

/** The star column, then the data columns. */
export const SCANNER_GRID = `28px ${SCANNER_COLUMNS.map((c) => c.width).join(' ')}`;
export const SCANNER_MIN_WIDTH = 900;
export const ROW_HEIGHT = 26;
