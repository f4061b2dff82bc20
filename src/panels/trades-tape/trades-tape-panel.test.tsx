import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { OrderFlowKey } from '../../api/market/order-flow';
import type { FakeOrderFlowFeed } from '../../api/market/order-flow/fake-feed';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { installFakeCanvas } from '../shared/canvas/fake-context';
import { paintedOf } from '../shared/canvas/painted';
import { tapeTime, type PaintedPrint } from './tape-painter';
import { TradesTapePanel } from './trades-tape-panel';

const feeds: FakeOrderFlowFeed[] = [];
vi.mock('../../api/market/order-flow', async () => {
  const { FakeOrderFlowFeed } = await import('../../api/market/order-flow/fake-feed');
  return {
    acquireOrderFlow: (key: OrderFlowKey) => {
      const feed = feeds.find((f) => f.key.symbol === key.symbol) ?? new FakeOrderFlowFeed(key);
      if (!feeds.includes(feed)) feeds.push(feed);
      return { feed, release: () => (feed.released += 1) };
    },
  };
});

const endpoints = { rest: '/sim/binance', restTestnet: '/sim/testnet/binance', ws: '/sim/binance', wsTestnet: '/sim/testnet/binance' };
const instrument = { symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 };
const originalAdapter = http.defaults.adapter;
const ok = (config: InternalAxiosRequestConfig, data: unknown) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  if (config.url === '/v1/config') return ok(config, { productName: 'Crypto Terminal', marketData: 'live', version: 't', sentryDsn: null, mail: false, custody: true, exchanges: { binance: endpoints, bybit: endpoints, okx: endpoints, bitmex: endpoints } });
  if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [instrument]);
  return ok(config, []);
};

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <TradesTapePanel node={{} as TabNode} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

async function theFeed(): Promise<FakeOrderFlowFeed> {
  // The file's first render also loads the panel's modules: a roomier wait (a hang guard, not a speed limit).
  await waitFor(() => expect(feeds[0]?.listeners.size).toBeGreaterThan(0), { timeout: 10_000 });
  return feeds[0]!;
}

/** What the canvas shows (its `painted` snapshot), newest first: "side time price size [LARGE]". */
const shown = () => (paintedOf<PaintedPrint[]>(screen.getByTestId('trades-tape-canvas')) ?? []).map((r) => `${r.side} ${r.time} ${r.price} ${r.size}${r.large ? ' LARGE' : ''}`);

let canvas: ReturnType<typeof installFakeCanvas>;

const T = Date.UTC(2026, 0, 1, 12, 0, 0, 250);

beforeEach(() => {
  feeds.length = 0;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT' });
  canvas = installFakeCanvas();
});
afterEach(() => {
  cleanup();
  canvas.restore();
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('Trades tape panel', () => {
  it('shows time, price, size and side newest first; an aggregate shows its count; no "Simulated" on live data', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setPrints([
      { time: T, price: '100.5', size: '0.25', side: 'buy' },
      { time: T - 10, price: '100.4', size: '1.5', side: 'sell', count: 3 },
    ]);
    act(() => feed.emit());
    await waitFor(() => expect(shown()).toEqual([`buy ${tapeTime(T)} 100.5 0.250`, `sell ${tapeTime(T - 10)} 100.4 1.500 ×3`]));
    expect(tapeTime(T)).toMatch(/^\d\d:\d\d:00\.250$/);
    expect(screen.queryByTestId('trades-tape-sim')).toBeNull();
  });

  it('hides prints under the minimum size and highlights large ones', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setPrints([
      { time: T, price: '100.5', size: '0.05', side: 'buy' },
      { time: T - 1, price: '100.4', size: '2', side: 'sell' },
      { time: T - 2, price: '100.3', size: '0.5', side: 'buy' },
    ]);
    act(() => feed.emit());
    await waitFor(() => expect(shown()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Min size'), { target: { value: '0.1' } });
    await waitFor(() => expect(shown().map((r) => r.split(' ')[2])).toEqual(['100.4', '100.3']));
    fireEvent.change(screen.getByLabelText('Large ≥'), { target: { value: '1' } });
    await waitFor(() => expect(shown()[0]).toMatch(/ LARGE$/));
    expect(shown()[1]).not.toMatch(/LARGE/);
    // New prints go through the same filter on the next frame.
    feed.setPrints([{ time: T + 5, price: '100.6', size: '0.01', side: 'sell' }, ...feed.prints]);
    act(() => feed.emit());
    expect(shown().map((r) => r.split(' ')[2])).toEqual(['100.4', '100.3']);
    fireEvent.change(screen.getByLabelText('Min size'), { target: { value: '' } });
    await waitFor(() => expect(shown()).toHaveLength(4));
  });

  it('says when the stream is reconnecting', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setStatus('reconnecting');
    act(() => feed.emit());
    expect(screen.getByTestId('trades-tape-status')).toHaveTextContent('Reconnecting…');
  });
});
