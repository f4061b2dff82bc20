import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { Order } from '../../api/contracts/trading';
import type { FakeOrderFlowFeed } from '../../api/market/order-flow/fake-feed';
import type { OrderFlowKey } from '../../api/market/order-flow';
import { installFakeCanvas } from '../shared/canvas/fake-context';
import { paintedOf } from '../shared/canvas/painted';
import { orderDraft } from '../../state/order-draft';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { ROW_PX, SPREAD_PX } from './book-painter';
import { BOOK_ROWS, OrderBookPanel, type PaintedBook } from './order-book-panel';

vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

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

const KEY: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  userId: '22222222-2222-4222-8222-222222222222',
  name: 'Main',
  exchange: 'binance',
  network: 'MAINNET',
  apiKeyMasked: 'sim…abcd',
  permissions: { read: true, trade: true, withdraw: false, details: [] },
  createdAt: '2026-01-01T00:00:00.000Z',
  lastValidatedAt: null,
  serverCustody: false,
};
const endpoints = { rest: '/sim/binance', restTestnet: '/sim/testnet/binance', ws: '/sim/binance', wsTestnet: '/sim/testnet/binance' };
const instrument = { symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 };
const order = (id: string, side: 'BUY' | 'SELL', price: string, qty: string): Order => ({ id, clientOrderId: null, exchange: 'binance', symbol: 'BTCUSDT', side, type: 'LIMIT', status: 'NEW', qty, filledQty: '0', price, triggerPrice: null, avgFillPrice: null, reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', bracketId: null, role: null });

const originalAdapter = http.defaults.adapter;
const ok = (config: InternalAxiosRequestConfig, data: unknown) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  if (config.url === '/v1/config') return ok(config, { productName: 'Crypto Terminal', marketData: 'sim', version: 't', sentryDsn: null, mail: false, custody: true, exchanges: { binance: endpoints, bybit: endpoints, okx: endpoints, bitmex: endpoints } });
  if (config.url === '/v1/api-keys') return ok(config, [KEY]);
  if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [instrument]);
  if (config.url === `/v1/trade/${KEY.id}/orders`) return ok(config, [order('o1', 'BUY', '100.1', '0.01'), order('o2', 'SELL', '101.2', '0.5')]);
  if (config.url?.startsWith('/v1/feature-flags')) return ok(config, {});
  return ok(config, []);
};

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <OrderBookPanel node={{} as TabNode} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The feed the panel took, once it has subscribed. */
async function theFeed(): Promise<FakeOrderFlowFeed> {
  // The file's first render also loads the panel's modules: a roomier wait (a hang guard, not a speed limit).
  await waitFor(() => expect(feeds[0]?.listeners.size).toBeGreaterThan(0), { timeout: 10_000 });
  return feeds[0]!;
}

/** What the canvas shows (its `painted` snapshot): each side's rows best first, "price size total [● own]". */
const painted = () => paintedOf<PaintedBook>(screen.getByTestId('order-book-canvas'))!;
const rowTexts = (side: 'bids' | 'asks') => painted()[side].map((r) => [r.price, r.size, r.total, r.mine ? `● ${r.mine}` : ''].join(' ').trim());

/** A click on row `index` (0 = best) of a side: the y of its middle (jsdom lays nothing out: the band sits below every ask row). */
function clickRow(side: 'bid' | 'ask', index: number) {
  const band = Math.floor((2 * BOOK_ROWS * ROW_PX) / 2);
  const top = side === 'ask' ? band - (index + 1) * ROW_PX : band + SPREAD_PX + index * ROW_PX;
  fireEvent.click(screen.getByTestId('order-book-canvas'), { clientY: top + ROW_PX / 2 });
}

let canvas: ReturnType<typeof installFakeCanvas>;
beforeEach(() => {
  feeds.length = 0;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT', apiKeyId: KEY.id, apiKeyPasswords: { [KEY.id]: 'key-pass-1' } });
  Object.assign(orderDraft, { seq: 0, price: null, side: null });
  canvas = installFakeCanvas();
});
afterEach(() => {
  cleanup();
  canvas.restore();
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('Order book panel', () => {
  it('shows bids and asks best first with sizes and cumulative sizes, the spread and mid, and "Simulated"', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setBook([['100.3', '1'], ['100.1', '2'], ['99.9', '0.5']], [['100.6', '1.5'], ['101.2', '3']]);
    act(() => feed.emit());
    // The trader's own orders (read from the account) are marked at their levels once they arrive.
    await waitFor(() => expect(rowTexts('bids')).toEqual(['100.3 1.000 1.000', '100.1 2.000 3.000 ● 0.01', '99.9 0.500 3.500']), { timeout: 5_000 });
    expect(rowTexts('asks')).toEqual(['100.6 1.500 1.500', '101.2 3.000 4.500 ● 0.5']);
    expect(painted().spread).toBe('Spread 0.3 · Mid 100.45');
    expect(screen.getByTestId('order-book-status')).toHaveTextContent('Live');
    expect(screen.getByTestId('order-book-sim')).toHaveTextContent('Simulated');
    // The biggest level fills its bar; the others in proportion.
    expect(painted().asks.map((r) => r.bar)).toEqual([0.5, 1]);
    // Drawn into a 2D context (jsdom has none: a recording fake), and summarised for assistive tech.
    expect(canvas.contexts.length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: /^Order book: .*Best bid 100\.3, best ask 100\.6$/ })).toBeInTheDocument();
  });

  it('groups by tick multiples exactly: bids down, asks up, own orders in their group', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setBook([['100.3', '1'], ['100.1', '2'], ['99.9', '0.5']], [['100.6', '1.5'], ['101.2', '3']]);
    act(() => feed.emit());
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Group by ticks' })).toBeEnabled(), { timeout: 5_000 });
    fireEvent.change(screen.getByRole('combobox', { name: 'Group by ticks' }), { target: { value: '10' } });
    await waitFor(() => expect(rowTexts('bids')).toEqual(['100.0 3.000 3.000 ● 0.01', '99.0 0.500 3.500']), { timeout: 5_000 });
    expect(rowTexts('asks')).toEqual(['101.0 1.500 1.500', '102.0 3.000 4.500 ● 0.5']);
  });

  it('a click on a level hands its price to Order entry: bids to buy, asks to sell', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setBook([['100.3', '1'], ['100.1', '2']], [['100.6', '1.5']]);
    act(() => feed.emit());
    clickRow('bid', 1);
    expect(orderDraft).toMatchObject({ price: '100.1', side: 'BUY', seq: 1 });
    clickRow('ask', 0);
    expect(orderDraft).toMatchObject({ price: '100.6', side: 'SELL', seq: 2 });
    // An empty row is not a price, nor is the spread band.
    clickRow('ask', 5);
    fireEvent.click(screen.getByTestId('order-book-canvas'), { clientY: BOOK_ROWS * ROW_PX + SPREAD_PX / 2 });
    expect(orderDraft.seq).toBe(2);
  });

  it('says "Resyncing…" and greys the last good book while the feed rebuilds it', async () => {
    renderPanel();
    const feed = await theFeed();
    feed.setBook([['100.3', '1']], [['100.6', '1.5']]);
    act(() => feed.emit());
    expect(screen.getByTestId('order-book')).not.toHaveAttribute('data-stale');
    feed.setStatus('resyncing');
    act(() => feed.emit());
    expect(screen.getByTestId('order-book-status')).toHaveTextContent('Resyncing…');
    expect(screen.getByTestId('order-book')).toHaveAttribute('data-status', 'resyncing');
    expect(screen.getByTestId('order-book')).toHaveAttribute('data-stale');
    expect(rowTexts('bids')).toEqual(['100.3 1.000 1.000']);
    feed.setStatus('live');
    act(() => feed.emit());
    expect(screen.getByTestId('order-book-status')).toHaveTextContent('Live');
  });

  it('follows the traded pair: a new pair takes a new feed and lets the old one go', async () => {
    renderPanel();
    const feed = await theFeed();
    act(() => {
      userSettings.tradingPair = 'ETHUSDT';
    });
    await waitFor(() => expect(feeds[1]?.key.symbol).toBe('ETHUSDT'));
    expect(feed.released).toBeGreaterThan(0);
  });
});
