import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { TradingPair } from '../../api/contracts/exchanges';
import { SERVER_SETTINGS_DEFAULTS, type FavoritePair, type ServerSettings } from '../../api/contracts/settings';
import { serverSettingsQueryKey } from '../../api/settings/get-server-settings';
import { chartLinks, replaceCharts } from '../../state/chart-links';
import { buildModel, defaultLayoutJson } from '../workstation/layout-model';
import { chartDefaults, testCatalog } from '../workstation/test-fixtures';
import { FavoritesPanel } from './favorites-panel';

const favorites: FavoritePair[] = [
  { exchange: 'binance', symbol: 'BTCUSDT' },
  { exchange: 'bybit', symbol: 'ETHUSDT' },
  { exchange: 'binance', symbol: 'SOLUSDT' },
];

let patches: unknown[];
let failPatch: boolean;
/** `GET /v1/exchanges/all-trading-pairs` answer; null = the call fails (nothing may be pruned). */
let listing: TradingPair[] | null;
const originalAdapter = http.defaults.adapter;

// The real endpoint code runs; only the transport is replaced.
const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
  if (config.method === 'patch' && config.url === '/v1/users/settings') {
    const body = JSON.parse(String(config.data)) as Partial<ServerSettings>;
    patches.push(body);
    if (failPatch) throw Object.assign(new Error('Request failed'), { isAxiosError: true, response: { status: 500, data: { message: 'Boom' } } });
    return { data: { ...SERVER_SETTINGS_DEFAULTS, ...body }, status: 200, statusText: 'OK', headers: {}, config };
  }
  if (config.method === 'get' && config.url === '/v1/exchanges/all-trading-pairs' && listing) {
    return { data: listing, status: 200, statusText: 'OK', headers: {}, config };
  }
  throw new Error(`unexpected ${config.method} ${config.url}`);
};

const node = buildModel(defaultLayoutJson(testCatalog, chartDefaults)).getNodeById('favorites') as TabNode;

function renderPanel(list: FavoritePair[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  client.setQueryData<ServerSettings>(serverSettingsQueryKey, { ...SERVER_SETTINGS_DEFAULTS, favoritePairs: list });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <FavoritesPanel node={node} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return client;
}

beforeEach(() => {
  patches = [];
  failPatch = false;
  listing = null;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  replaceCharts({
    a: { ...chartDefaults, link: 'green' },
    b: { ...chartDefaults, link: 'green', interval: '1h' },
    c: { ...chartDefaults, exchange: 'bybit', symbol: 'BTCUSDT' },
  }, 'c');
});

afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('FavoritesPanel', () => {
  it('lists favourites per exchange, the active chart exchange first', () => {
    renderPanel(favorites);
    const lists = screen.getAllByRole('list');
    expect(lists.map((l) => l.getAttribute('aria-label'))).toEqual(['bybit favourites', 'binance favourites']);
    expect(within(lists[1]).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['BTCUSDT', 'SOLUSDT']);
  });

  it('says how to add favourites when there are none', () => {
    renderPanel([]);
    expect(screen.getByText('No favourite pairs yet')).toBeInTheDocument();
  });

  it('shows a clicked pair in the active chart and its linked group', () => {
    renderPanel(favorites);
    fireEvent.click(screen.getByRole('button', { name: 'Show ETHUSDT on bybit in the active chart' }));
    expect(chartLinks.charts.c).toMatchObject({ exchange: 'bybit', symbol: 'ETHUSDT' });
    chartLinks.activeChartId = 'a';
    fireEvent.click(screen.getByRole('button', { name: 'Show SOLUSDT on binance in the active chart' }));
    expect(chartLinks.charts.a.symbol).toBe('SOLUSDT');
    expect(chartLinks.charts.b.symbol).toBe('SOLUSDT');
    expect(chartLinks.charts.c.symbol).toBe('ETHUSDT');
  });

  it('removes a favourite on the server and from the list', async () => {
    const client = renderPanel(favorites);
    fireEvent.click(screen.getByRole('button', { name: 'Remove SOLUSDT from favourites' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({ favoritePairs: favorites.filter((f) => f.symbol !== 'SOLUSDT') });
    expect(screen.queryByText('SOLUSDT')).toBeNull();
    await waitFor(() => expect(client.getQueryData<ServerSettings>(serverSettingsQueryKey)?.favoritePairs).toHaveLength(2));
  });

  it('puts a favourite back when the server refuses to remove it', async () => {
    failPatch = true;
    renderPanel(favorites);
    fireEvent.click(screen.getByRole('button', { name: 'Remove SOLUSDT from favourites' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(await screen.findByText('SOLUSDT')).toBeInTheDocument();
  });

  it('prunes pairs their exchange no longer lists, leaving exchanges missing from the listing alone', async () => {
    const pair = (exchange: TradingPair['exchange'], symbol: string): TradingPair => ({ exchange, symbol, exchangeSymbol: symbol, base: 'X', quote: 'USDT', category: 'linear' });
    listing = [pair('binance', 'BTCUSDT'), pair('binance', 'ETHUSDT')];
    renderPanel(favorites);
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({ favoritePairs: [{ exchange: 'binance', symbol: 'BTCUSDT' }, { exchange: 'bybit', symbol: 'ETHUSDT' }] });
    await waitFor(() => expect(screen.queryByText('SOLUSDT')).toBeNull());
  });

  it('prunes nothing when the listing cannot be loaded', async () => {
    renderPanel(favorites);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(patches).toEqual([]);
    expect(screen.getByText('SOLUSDT')).toBeInTheDocument();
  });
});
