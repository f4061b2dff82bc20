import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { Alert } from '../../api/contracts/alerts';
import { FEATURE_FLAG_DEFAULTS } from '../../api/contracts/feature-flags';
import { featureFlagMapQueryKey } from '../../api/feature-flags/get-feature-flag-map';
import { replaceCharts } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import { buildModel, defaultLayoutJson } from '../workstation/layout-model';
import { chartDefaults, testCatalog } from '../workstation/test-fixtures';
import { AlertsPanel } from './alerts-panel';
import { publishPriceFeed } from './live-prices';
import { marketKey, PriceFeed, type MarketKey, type PriceListener } from './price-feed';

const NOW = new Date().toISOString();
const base: Alert = {
  id: '00000000-0000-4000-8000-000000000001',
  exchange: 'binance',
  network: 'MAINNET',
  symbol: 'BTCUSDT',
  initialPrice: 60_000,
  triggerPrice: 66_000,
  status: 'active',
  triggeredAt: null,
  triggeredPrice: null,
  note: 'breakout',
  drawingId: null,
  createdAt: NOW,
  updatedAt: NOW,
};
const fired: Alert = {
  ...base,
  id: '00000000-0000-4000-8000-000000000002',
  symbol: 'ETHUSDT',
  initialPrice: 3000,
  triggerPrice: 3200,
  status: 'triggered',
  triggeredAt: NOW,
  triggeredPrice: 3201.5,
  note: null,
};

let stored: Alert[];
let requests: { method: string; url: string; body: unknown }[];
const originalAdapter = http.defaults.adapter;

const ok = (config: InternalAxiosRequestConfig, data: unknown, status = 200) => ({ data, status, statusText: 'OK', headers: {}, config });

// A small in-memory /v1/alerts behind the real api files: only the transport is replaced.
const adapter: AxiosAdapter = async (config) => {
  const body = typeof config.data === 'string' ? (JSON.parse(config.data) as Record<string, unknown>) : undefined;
  const url = config.url ?? '';
  requests.push({ method: config.method ?? '', url, body });
  if (config.method === 'get' && url === '/v1/alerts') return ok(config, stored);
  if (config.method === 'get' && url === '/v1/exchanges/all-trading-pairs') return ok(config, []);
  if (config.method === 'post' && url === '/v1/alerts') {
    const created: Alert = { ...base, ...(body as Partial<Alert>), id: '00000000-0000-4000-8000-000000000003', note: (body?.note as string) ?? null };
    stored = [...stored, created];
    return ok(config, created, 201);
  }
  const id = /\/v1\/alerts\/([^/]+)/.exec(url)?.[1];
  const alert = stored.find((a) => a.id === id);
  if (!alert) throw new Error(`unexpected ${config.method} ${url}`);
  if (config.method === 'delete') {
    stored = stored.filter((a) => a.id !== id);
    return ok(config, undefined, 204);
  }
  const next: Alert = url.endsWith('/rearm')
    ? { ...alert, status: 'active', initialPrice: body!.initialPrice as number, triggeredAt: null, triggeredPrice: null }
    : { ...alert, ...(body as Partial<Alert>) };
  stored = stored.map((a) => (a.id === id ? next : a));
  return ok(config, next);
};

/** Live prices pushed by hand. */
const streams = new Map<string, PriceListener>();
const openStream = (market: MarketKey, onTick: PriceListener) => {
  streams.set(marketKey(market), onTick);
  return () => streams.delete(marketKey(market));
};
const push = (key: string, price: number) => streams.get(key)?.({ price, time: Math.floor(Date.now() / 60_000) * 60 });

const node = buildModel(defaultLayoutJson(testCatalog, chartDefaults)).getNodeById('alerts') as TabNode;

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: 0 } } });
  client.setQueryData(featureFlagMapQueryKey, { ...FEATURE_FLAG_DEFAULTS, FF_ENABLE_ALERTS: true });
  render(
    // env="test": no transitions, so dropdowns open at once.
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <AlertsPanel node={node} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return client;
}

let feed: PriceFeed;
beforeEach(() => {
  stored = [base, fired];
  requests = [];
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  replaceCharts({ c: { ...chartDefaults, exchange: 'binance', symbol: 'BTCUSDT' } }, 'c');
  feed = new PriceFeed(openStream);
  publishPriceFeed(feed);
});

afterEach(() => {
  publishPriceFeed(null);
  feed.dispose();
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

const mutations = () => requests.filter((r) => r.method !== 'get');

describe('AlertsPanel', () => {
  it('lists active alerts with their distance from the live price, and triggered ones with the price that fired them', async () => {
    renderPanel();
    const active = await screen.findByRole('list', { name: 'Active alerts' });
    const row = within(active).getByRole('listitem', { name: 'Alert BTCUSDT at 66,000' });
    expect(row).toHaveTextContent('breakout');
    expect(within(row).getByTestId('alert-distance')).toHaveTextContent('—');
    push('binance:BTCUSDT', 60_000);
    await waitFor(() => expect(within(row).getByTestId('alert-distance')).toHaveTextContent('+10.00 %'));
    const triggered = screen.getByRole('list', { name: 'Triggered alerts' });
    expect(within(triggered).getByRole('listitem', { name: 'Triggered alert ETHUSDT at 3,200' })).toHaveTextContent('at 3,201.5');
  });

  it("sets an alert on the active chart's pair with the live price as its initial price", async () => {
    renderPanel();
    await screen.findByRole('list', { name: 'Active alerts' });
    const add = screen.getByRole('button', { name: 'Add alert' });
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '58000' } });
    expect(add).toBeDisabled(); // no price yet: the direction would be a guess
    push('binance:BTCUSDT', 61_234.5);
    await waitFor(() => expect(screen.getByTestId('alert-form-price')).toHaveTextContent('Price 61,234.5 · alerts when it falls to 58,000 (−5.28 %)'));
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: ' retest ' } });
    fireEvent.click(add);
    await waitFor(() => expect(mutations()).toHaveLength(1));
    expect(mutations()[0]).toEqual({
      method: 'post',
      url: '/v1/alerts',
      body: { exchange: 'binance', network: 'MAINNET', symbol: 'BTCUSDT', initialPrice: 61_234.5, triggerPrice: 58_000, note: 'retest' },
    });
    const active = screen.getByRole('list', { name: 'Active alerts' });
    await waitFor(() => expect(within(active).getAllByRole('listitem')).toHaveLength(2));
  });

  it('sets the alert on testnet when the user is on testnet, and says so in its row', async () => {
    userSettings.useTestnet = true;
    try {
      renderPanel();
      await screen.findByRole('list', { name: 'Active alerts' });
      fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '58000' } });
      push('binance:BTCUSDT', 61_234.5);
      const add = screen.getByRole('button', { name: 'Add alert' });
      await waitFor(() => expect(add).toBeEnabled());
      fireEvent.click(add);
      await waitFor(() => expect(mutations()).toHaveLength(1));
      expect(mutations()[0]?.body).toMatchObject({ exchange: 'binance', network: 'TESTNET', triggerPrice: 58_000 });
      const active = screen.getByRole('list', { name: 'Active alerts' });
      const row = await within(active).findByRole('listitem', { name: 'Alert BTCUSDT at 58,000' });
      expect(row).toHaveTextContent('binance · testnet');
      // The mainnet alert's row shows no distance from testnet's price.
      expect(within(within(active).getByRole('listitem', { name: 'Alert BTCUSDT at 66,000' })).getByTestId('alert-distance')).toHaveTextContent('—');
      // Nor is a mainnet alert re-armed from testnet's price.
      fireEvent.click(await screen.findByRole('button', { name: 'Re-arm alert ETHUSDT at 3,200' }));
      await new Promise((r) => setTimeout(r, 300));
      expect(streams.has('binance:ETHUSDT')).toBe(false); // no (testnet) price asked for
      expect(mutations().filter((m) => m.url.endsWith('/rearm'))).toEqual([]);
    } finally {
      userSettings.useTestnet = false;
    }
  });

  it('refuses a trigger equal to the live price', async () => {
    renderPanel();
    push('binance:BTCUSDT', 61_000);
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '61000' } });
    expect(await screen.findByText('Equals the current price')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add alert' })).toBeDisabled();
  });

  it('moves a trigger with the live price as the new initial price, and deletes an alert', async () => {
    renderPanel();
    push('binance:BTCUSDT', 62_000);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit trigger price of BTCUSDT at 66,000' }));
    const input = screen.getByLabelText('New trigger price for BTCUSDT');
    fireEvent.change(input, { target: { value: '59000' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(mutations()).toHaveLength(1));
    expect(mutations()[0]).toEqual({ method: 'patch', url: `/v1/alerts/${base.id}`, body: { triggerPrice: 59_000, initialPrice: 62_000 } });
    await screen.findByRole('listitem', { name: 'Alert BTCUSDT at 59,000' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete alert BTCUSDT at 59,000' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Alert BTCUSDT at 59,000' })).toBeNull());
    expect(mutations()[1]).toMatchObject({ method: 'delete', url: `/v1/alerts/${base.id}` });
    expect(await screen.findByTestId('alerts-active-empty')).toBeInTheDocument();
  });

  it('re-arms a triggered alert from the live price of its own market', async () => {
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Re-arm alert ETHUSDT at 3,200' }));
    // The ETH price is fetched on demand (no active ETH alert streams it yet).
    await waitFor(() => expect(streams.has('binance:ETHUSDT')).toBe(true));
    push('binance:ETHUSDT', 3150);
    await waitFor(() => expect(mutations()).toHaveLength(1));
    expect(mutations()[0]).toEqual({ method: 'post', url: `/v1/alerts/${fired.id}/rearm`, body: { initialPrice: 3150 } });
    const active = screen.getByRole('list', { name: 'Active alerts' });
    await waitFor(() => expect(within(active).getByRole('listitem', { name: 'Alert ETHUSDT at 3,200' })).toBeInTheDocument());
    expect(screen.queryByRole('list', { name: 'Triggered alerts' })).toBeNull();
    await waitFor(() => expect(streams.has('binance:ETHUSDT')).toBe(true)); // now watched for its distance
  });

  it('picks the alert sound into the user settings', async () => {
    renderPanel();
    userSettings.alertSound = 'alert-1';
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Alert sound' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    // SPEC §3: alert-1 to alert-4, each with its name (the names belong to src/ui/alert-sounds.ts).
    expect(options).toEqual([/\(alert-1\)$/, /\(alert-2\)$/, /\(alert-3\)$/, /\(alert-4\)$/].map((re) => expect.stringMatching(re)));
    await user.click(screen.getByRole('option', { name: /alert-3/ }));
    expect(userSettings.alertSound).toBe('alert-3');
    expect(screen.getByRole('button', { name: 'Preview sound' })).toBeInTheDocument();
  });
});
