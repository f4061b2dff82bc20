import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { Model, type TabNode } from 'flexlayout-react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { ExchangeId } from '../../api/contracts/common';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlagMap } from '../../api/contracts/feature-flags';
import { packRowPatches, SCANNER_VIEW_DEFAULTS, type ScannerRow, type ScannerServerMessage } from '../../api/contracts/scanner';
import { SERVER_SETTINGS_DEFAULTS, type ServerSettings } from '../../api/contracts/settings';
import { featureFlagMapQueryKey } from '../../api/feature-flags/get-feature-flag-map';
import { serverSettingsQueryKey } from '../../api/settings/get-server-settings';
import { chartLinks, replaceCharts } from '../../state/chart-links';
import { offeredPanels } from '../registry';
import { PanelHost } from '../workstation/panel-host';
import { chartDefaults } from '../workstation/test-fixtures';
import { ScannerPanel } from './scanner-panel';

// The panel with its real stream client over a fake WebSocket (the server's messages on demand)
// and its real settings calls over a fake transport.

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<{ op: string; exchanges?: string[] }> = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.(new Event('open'));
    });
  }
  send(data: string) {
    const message = JSON.parse(data) as { op: string; exchanges?: string[] };
    this.sent.push(message);
    if (message.op === 'auth') this.receive({ type: 'ready' });
  }
  close() {
    this.readyState = 3;
  }
  receive(message: ScannerServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
}
const socket = () => FakeSocket.all[FakeSocket.all.length - 1];

const status = (exchange: ExchangeId) => ({ exchange, state: 'ok' as const, message: null, tickersAt: 1, atrAt: 1, live: true });
const row = (exchange: ExchangeId, symbol: string, over: Partial<ScannerRow>): ScannerRow => ({
  exchange,
  symbol,
  base: symbol.replace(/USDT?$/, ''),
  quote: symbol.endsWith('USDT') ? 'USDT' : 'USD',
  category: 'linear',
  last: 100,
  changePercent: 0,
  quoteVolume: 1e6,
  rangePercent: 1,
  fundingRate: 0.0001,
  nextFundingTime: null,
  openInterest: null,
  atrPercent: 0.5,
  ...over,
});
const BINANCE = [
  row('binance', 'BTCUSDT', { last: 67_000, changePercent: 1.5, quoteVolume: 9e9 }),
  row('binance', 'ETHUSDT', { last: 3_700, changePercent: -2.25, quoteVolume: 5e9 }),
  row('binance', 'SOLUSDT', { last: 150, changePercent: 7.1, quoteVolume: 1e9 }),
];
const BYBIT = [row('bybit', 'BTCUSDT', { last: 67_010, changePercent: 1.4, quoteVolume: 4e9 }), row('bybit', 'PEPEUSDT', { last: 0.0000123, changePercent: 12, quoteVolume: 2e8 })];

let patches: Partial<ServerSettings>[];
const originalAdapter = http.defaults.adapter;
const originalWebSocket = globalThis.WebSocket;
const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  if (config.method === 'patch' && config.url === '/v1/users/settings') {
    const body = JSON.parse(String(config.data)) as Partial<ServerSettings>;
    patches.push(body);
    return { data: { ...SERVER_SETTINGS_DEFAULTS, ...body }, status: 200, statusText: 'OK', headers: {}, config };
  }
  throw new Error(`unexpected ${config.method} ${config.url}`);
};

function scannerNode(): TabNode {
  const model = Model.fromJson({
    global: {},
    borders: [],
    layout: { type: 'row', children: [{ type: 'tabset', children: [{ type: 'tab', id: 'scanner', name: 'Scanner', component: 'scanner' }] }] },
  });
  return model.getNodeById('scanner') as TabNode;
}

function renderPanel(flags: Partial<FeatureFlagMap> = {}, settings: Partial<ServerSettings> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  client.setQueryData(featureFlagMapQueryKey, { ...FEATURE_FLAG_DEFAULTS, FF_ENABLE_SCANNER: true, FF_ENABLE_BYBIT: true, ...flags });
  client.setQueryData<ServerSettings>(serverSettingsQueryKey, { ...SERVER_SETTINGS_DEFAULTS, ...settings });
  const node = scannerNode();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <ScannerPanel node={node} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { client, node };
}

/** Opens the panel and lets the server answer with both exchanges' snapshots. */
async function openWithRows(settings: Partial<ServerSettings> = {}) {
  const rendered = renderPanel({}, settings);
  await waitFor(() => expect(socket()?.sent.some((m) => m.op === 'subscribe')).toBe(true));
  expect(socket().sent.find((m) => m.op === 'subscribe')).toEqual({ op: 'subscribe', exchanges: ['binance', 'bybit'] });
  socket().receive({ type: 'snapshot', exchange: 'binance', rows: BINANCE, status: status('binance') });
  socket().receive({ type: 'snapshot', exchange: 'bybit', rows: BYBIT, status: status('bybit') });
  await waitFor(() => expect(shownRows()).toHaveLength(5));
  return rendered;
}

/** The keys of the rows on screen, top down (the table's unused line slots are hidden). */
const shownRows = () =>
  screen
    .queryAllByTestId('scanner-row')
    .filter((r) => !r.hidden)
    .map((r) => r.getAttribute('data-key'));
const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });

beforeEach(() => {
  FakeSocket.all = [];
  patches = [];
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  replaceCharts({ a: { ...chartDefaults, link: 'green' }, b: { ...chartDefaults, link: 'green', interval: '1h' }, c: { ...chartDefaults } }, 'a');
});

afterEach(() => {
  (globalThis as { WebSocket: unknown }).WebSocket = originalWebSocket;
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('ScannerPanel', () => {
  it('shows every row of the enabled exchanges, by volume first; a header click sorts by that column, a second reverses it', async () => {
    await openWithRows();
    expect(shownRows()).toEqual(['binance:BTCUSDT', 'binance:ETHUSDT', 'bybit:BTCUSDT', 'binance:SOLUSDT', 'bybit:PEPEUSDT']);
    expect(screen.getByTestId('scanner-count')).toHaveTextContent('5 of 5 pairs');

    fireEvent.click(header('24h %'));
    await waitFor(() => expect(shownRows()).toEqual(['bybit:PEPEUSDT', 'binance:SOLUSDT', 'binance:BTCUSDT', 'bybit:BTCUSDT', 'binance:ETHUSDT']));
    expect(screen.getByRole('columnheader', { name: /24h %/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(header('24h %'));
    await waitFor(() => expect(shownRows()[0]).toBe('binance:ETHUSDT'));
    expect(screen.getByRole('columnheader', { name: /24h %/ })).toHaveAttribute('aria-sort', 'ascending');
    fireEvent.click(header('Pair'));
    await waitFor(() => expect(shownRows()).toEqual(['binance:BTCUSDT', 'bybit:BTCUSDT', 'binance:ETHUSDT', 'bybit:PEPEUSDT', 'binance:SOLUSDT']));
  });

  it('filters by exchange (and watches only it), text, minimum volume and change range', async () => {
    await openWithRows();
    fireEvent.click(screen.getByRole('checkbox', { name: 'bybit' }));
    await waitFor(() => expect(shownRows()).toEqual(['bybit:BTCUSDT', 'bybit:PEPEUSDT']));
    await waitFor(() => expect(socket().sent.at(-1)).toEqual({ op: 'subscribe', exchanges: ['bybit'] }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'bybit' })); // none ticked: all again
    await waitFor(() => expect(socket().sent.at(-1)).toEqual({ op: 'subscribe', exchanges: ['binance', 'bybit'] }));
    socket().receive({ type: 'snapshot', exchange: 'binance', rows: BINANCE, status: status('binance') });
    await waitFor(() => expect(shownRows()).toHaveLength(5));

    fireEvent.change(screen.getByRole('textbox', { name: 'Search pairs' }), { target: { value: 'btc' } });
    await waitFor(() => expect(shownRows()).toEqual(['binance:BTCUSDT', 'bybit:BTCUSDT']));
    fireEvent.change(screen.getByRole('textbox', { name: 'Search pairs' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum 24h volume' }), { target: { value: '4,500,000,000' } });
    await waitFor(() => expect(shownRows()).toEqual(['binance:BTCUSDT', 'binance:ETHUSDT']));
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum 24h volume' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum 24h change %' }), { target: { value: '2' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Maximum 24h change %' }), { target: { value: '10' } });
    await waitFor(() => expect(shownRows()).toEqual(['binance:SOLUSDT']));
    expect(screen.getByTestId('scanner-count')).toHaveTextContent('1 of 5 pairs');
    fireEvent.change(screen.getByRole('textbox', { name: 'Maximum 24h change %' }), { target: { value: '3' } });
    expect(await screen.findByTestId('scanner-empty')).toHaveTextContent('No pair matches the filters.');
  });

  it('presets: saves the current view under a name in the server settings, applies one, deletes one', async () => {
    const movers = { ...SCANNER_VIEW_DEFAULTS, sort: 'changePercent' as const, minChange: 5 };
    await openWithRows({ scannerPresets: { Movers: movers } });

    // Apply: the view (filters and sort) becomes the preset's.
    fireEvent.click(screen.getByRole('button', { name: 'Presets' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Apply preset Movers' }));
    await waitFor(() => expect(shownRows()).toEqual(['bybit:PEPEUSDT', 'binance:SOLUSDT']));
    expect(screen.getByRole('button', { name: 'Movers' })).toBeInTheDocument(); // the menu names the preset in use

    // Save: the current view under a new name, the others kept.
    fireEvent.click(header('ATR 1h'));
    fireEvent.click(await screen.findByRole('button', { name: 'Presets' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save view as preset…' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Preset name' }), { target: { value: '  Volatile  movers ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({ scannerPresets: { Movers: movers, 'Volatile movers': { ...movers, sort: 'atrPercent', direction: 'desc' } } });

    // Delete.
    fireEvent.click(await screen.findByRole('button', { name: 'Volatile movers' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete preset Movers' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(Object.keys(patches[1].scannerPresets ?? {})).toEqual(['Volatile movers']);
  });

  it('a click shows the pair in the active chart and its linked group; the star toggles a favourite', async () => {
    await openWithRows();
    fireEvent.click(screen.getByRole('row', { name: 'PEPEUSDT on bybit' }));
    expect(chartLinks.charts.a).toMatchObject({ exchange: 'bybit', symbol: 'PEPEUSDT' });
    expect(chartLinks.charts.b).toMatchObject({ exchange: 'bybit', symbol: 'PEPEUSDT' }); // linked (green)
    expect(chartLinks.charts.c).toMatchObject({ exchange: 'binance', symbol: 'BTCUSDT' }); // not linked
    await waitFor(() => expect(screen.getByRole('row', { name: 'PEPEUSDT on bybit' })).toHaveAttribute('data-active', 'true'));

    const star = within(screen.getByRole('row', { name: 'SOLUSDT on binance' })).getByRole('button', { name: 'Add SOLUSDT on binance to favourites' });
    fireEvent.click(star);
    await waitFor(() => expect(patches).toEqual([{ favoritePairs: [{ symbol: 'SOLUSDT', exchange: 'binance' }] }]));
    expect(chartLinks.charts.a.symbol).toBe('PEPEUSDT'); // the star is not a row click
    expect(await screen.findByRole('button', { name: 'Remove SOLUSDT on binance from favourites' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('favourites first puts the starred pairs on top', async () => {
    await openWithRows({ favoritePairs: [{ exchange: 'bybit', symbol: 'PEPEUSDT' }] });
    fireEvent.click(screen.getByRole('switch', { name: 'Favourites first' }));
    await waitFor(() => expect(shownRows()[0]).toBe('bybit:PEPEUSDT'));
  });

  it('values tick: an update changes the cell and flashes it in its direction', async () => {
    await openWithRows();
    socket().receive({ type: 'update', exchange: 'binance', blocks: packRowPatches([{ symbol: 'ETHUSDT', last: 3_650.5, changePercent: -3.5 }]) });
    const eth = screen.getByRole('row', { name: 'ETHUSDT on binance' });
    await waitFor(() => expect(within(eth).getByText('3,650.5')).toBeInTheDocument());
    const last = eth.querySelector('[data-field=last]');
    expect(last?.getAttribute('data-flash')).toBe('down');
    expect(eth.querySelector('[data-field=changePercent]')).toHaveTextContent('-3.50%');
    expect(eth.querySelector('[data-field=quoteVolume]')?.hasAttribute('data-flash')).toBe(false);
  });

  it('an exchange that cannot be loaded says so in the status line while the others show', async () => {
    await openWithRows();
    socket().receive({ type: 'status', status: { exchange: 'bybit', state: 'stale', message: 'Could not load the tickers of bybit: HTTP 503', tickersAt: 1, atrAt: null, live: false } });
    await waitFor(() => expect(document.querySelector('[data-exchange-status=bybit]')).toHaveAttribute('data-state', 'stale'));
    expect(shownRows()).toHaveLength(5);
  });

  it('the server refusing the stream because the scanner was turned off: the panel says so', async () => {
    renderPanel();
    await waitFor(() => expect(socket()?.sent.length).toBeGreaterThan(0));
    socket().receive({ type: 'error', status: 403, message: 'The scanner is turned off (FF_ENABLE_SCANNER)' });
    expect(await screen.findByText('Scanner is turned off')).toBeInTheDocument();
  });
});

describe('FF_ENABLE_SCANNER off', () => {
  it('the scanner is not offered in "Add panel", and an open one says it is turned off without connecting', () => {
    const off = { ...FEATURE_FLAG_DEFAULTS, FF_ENABLE_SCANNER: false } as FeatureFlagMap;
    expect(Object.keys(offeredPanels(off))).not.toContain('scanner');
    expect(Object.keys(offeredPanels({ ...off, FF_ENABLE_SCANNER: true }))).toContain('scanner');

    const client = new QueryClient();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <PanelHost node={scannerNode()} flags={off} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(screen.getByText('Scanner is turned off')).toBeInTheDocument();
    expect(FakeSocket.all).toHaveLength(0);
  });
});
