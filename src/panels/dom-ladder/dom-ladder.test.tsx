import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { Order, Position } from '../../api/contracts/trading';
import type { BookLevel, BookView, OrderFlowFeed, OrderFlowKey, TradePrint } from '../../api/market/order-flow/types';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { installFakeCanvas } from '../shared/canvas/fake-context';
import { paintedOf } from '../shared/canvas/painted';
import { DomLadderPanel } from './dom-ladder-panel';
import type { LadderColumn, PaintedLadder } from './ladder-painter';

// The account stream is the server's (tested there); here the panel reads the REST answers.
vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

/** A book the test moves by hand; `emit` is the feed's once-a-frame change. */
class FakeFeed implements OrderFlowFeed {
  readonly stats = { gaps: 0, checksumFailures: 0, resyncs: 0, reconnects: 0 };
  view: BookView = { bids: [], asks: [], version: 0, status: 'live', tickSize: '0.1' };
  prints: TradePrint[] = [];
  listeners = new Set<() => void>();
  released = 0;
  constructor(readonly key: OrderFlowKey) {}
  book(depth?: number): BookView {
    return depth === undefined ? this.view : { ...this.view, bids: this.view.bids.slice(0, depth), asks: this.view.asks.slice(0, depth) };
  }
  trades(limit = 500): readonly TradePrint[] {
    return this.prints.slice(0, limit);
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Best bid `bid`, best ask one tick above, five levels a side of `size` each (the best one 1.5). */
  setBook(bid: number, last: number | null = null): void {
    const level = (p: number, s: number): BookLevel => ({ price: p.toFixed(1).replace(/\.0$/, ''), size: String(s), p, s });
    const bids = [0, 1, 2, 3, 4].map((k) => level(Math.round((bid - k * 0.1) * 10) / 10, k === 0 ? 1.5 : 2));
    const asks = [0, 1, 2, 3, 4].map((k) => level(Math.round((bid + 0.1 + k * 0.1) * 10) / 10, k === 0 ? 0.75 : 2));
    this.view = { ...this.view, bids, asks, version: this.view.version + 1 };
    if (last !== null) this.prints = [{ time: 1, price: String(last), size: '0.1', p: last, s: 0.1, side: 'buy', count: 1, id: String(this.view.version) }];
    act(() => this.listeners.forEach((l) => l()));
  }
}

let feed: FakeFeed | null = null;
vi.mock('../../api/market/order-flow', () => ({
  orderFlowKeyId: (k: OrderFlowKey) => `${k.exchange}|${k.symbol}|${k.testnet}|${k.category ?? ''}`,
  acquireOrderFlow: (key: OrderFlowKey) => {
    const made = new FakeFeed(key);
    made.view = { ...made.view, bids: [], asks: [] };
    feed = made;
    return { feed: made, release: () => made.released++ };
  },
}));

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
const instrument = { symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 };
const order = (id: string, patch: Partial<Order> = {}): Order => ({ id, clientOrderId: null, exchange: 'binance', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', status: 'NEW', qty: '0.01', filledQty: '0', price: '64999', triggerPrice: null, avgFillPrice: null, reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', bracketId: null, role: null, ...patch });
const position: Position = { exchange: 'binance', symbol: 'BTCUSDT', side: 'BUY', size: '0.01', baseQty: '0.01', notional: '650', entryPrice: '64999.5', markPrice: '65000', liquidationPrice: null, breakEvenPrice: '64999.5', unrealisedPnl: '0.01', realisedPnl: '0', leverage: '10', marginMode: 'CROSS', margin: '65', category: 'linear' };

let calls: Array<{ method: string; url: string; body: unknown }>;
let locked: boolean;
let positions: Position[];
const originalAdapter = http.defaults.adapter;
const ok = (config: InternalAxiosRequestConfig, data: unknown) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  const method = String(config.method);
  calls.push({ method, url: String(config.url), body: config.data ? JSON.parse(String(config.data)) : undefined });
  const base = `/v1/trade/${KEY.id}`;
  if (config.url === '/v1/api-keys') return ok(config, [KEY]);
  if (config.url === `/v1/api-keys/${KEY.id}/unlock`) return { data: null, status: 204, statusText: 'No Content', headers: {}, config };
  if (config.url === '/v1/config') {
    const ends = { rest: '/sim/binance', restTestnet: '/sim/binance', ws: '/sim/binance', wsTestnet: '/sim/binance' };
    return ok(config, { productName: 'Crypto Terminal', marketData: 'sim', version: 'test', sentryDsn: null, mail: false, custody: true, exchanges: { binance: ends, bybit: ends, okx: ends, bitmex: ends } });
  }
  if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [instrument]);
  if (config.url === `${base}/limits`) return ok(config, { funded: locked, dailyLossLimit: locked ? '1000' : null, lossToday: locked ? '1200' : '0', locked, lockedUntil: locked ? '2026-06-02T00:00:00.000Z' : null, reason: null });
  if (config.url === `${base}/positions`) return ok(config, positions);
  if (config.url === `${base}/orders` && method === 'get') return ok(config, [order('o1'), order('o2', { side: 'SELL', type: 'STOP_MARKET', status: 'UNTRIGGERED', price: null, triggerPrice: '64998' })]);
  if (config.url === `${base}/orders` && method === 'post') return ok(config, { ...order('o9'), ...JSON.parse(String(config.data)) });
  if (config.url === `${base}/orders/o1` && method === 'patch') return ok(config, { ...order('o1'), ...JSON.parse(String(config.data)) });
  if (config.url === `${base}/orders/o1` && method === 'delete') return ok(config, { ...order('o1'), status: 'CANCELED' });
  throw new AxiosError(`unexpected ${method} ${config.url}`, 'ERR_BAD_REQUEST', config);
};

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <DomLadderPanel node={{} as TabNode} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The panel with its rows around 65000 (best bid 65000, ask 65000.1, last trade 65000.1). */
async function ladder() {
  renderPanel();
  // The file's first render also loads the panel's modules: a roomy wait (a hang guard on a loaded machine, not a speed limit).
  await waitFor(() => expect(feed).not.toBeNull(), { timeout: 20_000 });
  feed!.setBook(65000, 65000.1);
  return screen.findByTestId('dom-ladder-rows');
}

/** What the canvas shows (its `painted` snapshot): the rows top to bottom, each column's middle. */
const painted = () => paintedOf<PaintedLadder>(screen.getByTestId('dom-ladder-canvas'))!;
const prices = () => painted().rows.map((r) => r.price);
const painter = (price: string) => {
  const r = painted().rows.find((x) => x.price === price);
  if (!r) throw new Error(`no row at ${price}`);
  return r;
};
/** The DOM row over the canvas that carries the trader's orders or the position's entry. */
const row = (price: string) => {
  const el = document.querySelector<HTMLElement>(`[data-price="${price}"]`);
  if (!el) throw new Error(`no order row at ${price}`);
  return el;
};
/** The pointer on a row's column (jsdom lays nothing out: the ladder's box starts at 0, 0). */
const at = (price: string, col: LadderColumn) => ({ clientX: painted().cols[col], clientY: painter(price).y });
const clickCell = (price: string, col: 'bid' | 'ask', init: { shiftKey?: boolean } = {}) => fireEvent.click(screen.getByTestId('dom-ladder-rows'), { ...at(price, col), ...init });
/** A drop on a row (jsdom has no DragEvent: a mouse event of that name carries the position). */
const dropOn = (price: string, col: LadderColumn, type: 'dragover' | 'drop' = 'drop') => fireEvent(screen.getByTestId('dom-ladder-rows'), new MouseEvent(type, { bubbles: true, cancelable: true, ...at(price, col) }));
const posted = () => calls.filter((c) => c.method === 'post' && c.url.endsWith('/orders'));

let canvas: ReturnType<typeof installFakeCanvas>;

beforeEach(() => {
  canvas = installFakeCanvas();
  calls = [];
  locked = false;
  positions = [position];
  feed = null;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT', apiKeyId: KEY.id, apiKeyPasswords: { [KEY.id]: 'key-pass-1' } });
});

afterEach(() => {
  canvas.restore();
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('DOM ladder', () => {
  it('shows fixed rows centred on the mid with the book sizes, the last trade, the trader’s orders and the position entry on their rows', async () => {
    await ladder();
    expect(prices()).toHaveLength(41);
    expect(prices()[20]).toBe('65000');
    expect(prices()[0]).toBe('65002');
    expect(prices()[40]).toBe('64998');
    expect(painter('65000').bid).toBe('1.5');
    expect(painter('65000.1').ask).toBe('0.75');
    expect(painter('65000.1').bid).toBe('');
    expect(painter('65000.1').last).toBe(true);
    expect(painter('65000').last).toBe(false);
    // Painted into a 2D context (a recording fake here: jsdom has none), with a label for assistive tech.
    expect(canvas.contexts.length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: /^DOM ladder/ })).toBeInTheDocument();
    // The account's orders arrive after the book: each on its row and side.
    await waitFor(() => expect(within(row('64999')).getByText(/0\.01/).closest('[data-order-id]')).toHaveAttribute('data-order-id', 'o1'));
    expect(row('64998').querySelector('[data-col="sell-orders"] [data-order-id="o2"]')).not.toBeNull();
    await waitFor(() => expect(row('64999.5')).toHaveAttribute('data-entry'));
  });

  it('follows the price: the last-trade mark moves, and the rows centre again once the mid leaves them', async () => {
    await ladder();
    feed!.setBook(65000, 64999.9);
    expect(painter('64999.9').last).toBe(true);
    expect(painter('65000.1').last).toBe(false);
    feed!.setBook(65100);
    await waitFor(() => expect(prices()).toContain('65100'));
    // The trader's orders at 64999 and 64998 are now below the rows: said, not lost.
    expect(await screen.findByTestId('dom-ladder-off-rows')).toHaveTextContent('2 orders below the rows');
    expect(prices()[20]).toBe('65100');
    expect(painter('65100').bid).toBe('1.5');
  });

  it('holds its rows while the pointer is on them (a row keeps the price a click aims at), and centres once it leaves', async () => {
    const rows = await ladder();
    fireEvent.pointerOver(rows);
    feed!.setBook(65100);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(prices()).not.toContain('65100');
    expect(prices()[20]).toBe('65000');
    fireEvent.pointerOut(rows, { relatedTarget: document.body });
    feed!.setBook(65100);
    await waitFor(() => expect(prices()).toContain('65100'));
  });

  it('a click in the bid column places a limit buy at that row with a client order id; in the ask column a limit sell', async () => {
    await ladder();
    clickCell('64999.5', 'bid');
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0].body).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '64999.5', qty: '0.001', reduceOnly: false });
    expect((posted()[0].body as { clientOrderId: string }).clientOrderId).toMatch(/^ct[0-9a-z]+$/);
    fireEvent.click(screen.getByRole('button', { name: '0.005' }));
    clickCell('65001', 'ask');
    await waitFor(() => expect(posted()).toHaveLength(2));
    expect(posted()[1].body).toMatchObject({ side: 'SELL', type: 'LIMIT', price: '65001', qty: '0.005' });
  });

  it('Shift+click places a stop-market: a buy stop above the ask, a sell stop below the bid', async () => {
    await ladder();
    clickCell('65001.5', 'bid', { shiftKey: true });
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0].body).toMatchObject({ side: 'BUY', type: 'STOP_MARKET', triggerPrice: '65001.5' });
    expect(posted()[0].body).not.toHaveProperty('price');
    clickCell('64998.5', 'ask', { shiftKey: true });
    await waitFor(() => expect(posted()).toHaveLength(2));
    expect(posted()[1].body).toMatchObject({ side: 'SELL', type: 'STOP_MARKET', triggerPrice: '64998.5' });
  });

  it('refuses a click on the wrong side of the market, or with a size off the step, with a message and sends nothing', async () => {
    await ladder();
    clickCell('65001', 'bid');
    expect(await screen.findByTestId('dom-ladder-message')).toHaveTextContent('A buy limit goes below the best ask 65000.1 (at or above it, it would fill at once)');
    clickCell('64999', 'ask');
    expect(screen.getByTestId('dom-ladder-message')).toHaveTextContent('A sell limit goes above the best bid 65000');
    clickCell('64999', 'bid', { shiftKey: true });
    expect(screen.getByTestId('dom-ladder-message')).toHaveTextContent('A buy stop goes above the best ask 65000.1');
    fireEvent.change(screen.getByLabelText(/^Size/), { target: { value: '0.0015' } });
    clickCell('64999', 'bid');
    expect(screen.getByTestId('dom-ladder-message')).toHaveTextContent('Size: Use a multiple of 0.001');
    await new Promise((r) => setTimeout(r, 50));
    expect(posted()).toHaveLength(0);
  });

  it('dragging an order’s chip to another row moves it (PATCH its price); a waiting stop dragged past the market is refused', async () => {
    await ladder();
    const chip = await waitFor(() => row('64999').querySelector<HTMLElement>('[data-order-id="o1"]')!);
    fireEvent.dragStart(chip);
    dropOn('64998.5', 'bid', 'dragover');
    expect(screen.getByTestId('dom-ladder-drop-target').style.top).toBe(`${painter('64998.5').y - 9.5}px`);
    dropOn('64998.5', 'bid');
    await waitFor(() => expect(calls.some((c) => c.method === 'patch')).toBe(true));
    expect(calls.find((c) => c.method === 'patch')).toMatchObject({ url: `/v1/trade/${KEY.id}/orders/o1`, body: { price: '64998.5' } });
    // The sell stop at 64998 waits below the bid: dropped above it, it would trigger at once.
    fireEvent.dragStart(row('64998').querySelector<HTMLElement>('[data-order-id="o2"]')!);
    dropOn('65001', 'ask');
    expect(await screen.findByTestId('dom-ladder-message')).toHaveTextContent('A sell stop goes below the best bid 65000');
    expect(calls.filter((c) => c.method === 'patch')).toHaveLength(1);
  });

  it('✕ on a chip asks first under the cancel confirm flag, then cancels; with the flag off it cancels at once', async () => {
    await ladder();
    const cancel = await screen.findByRole('button', { name: 'Cancel the buy limit 0.01 at 64999' });
    fireEvent.click(cancel);
    // The modal's content comes in after its root (a transition): wait for the question itself.
    const dialog = await screen.findByTestId('dom-ladder-confirm');
    await waitFor(() => expect(dialog).toHaveTextContent('Cancel the buy limit 0.01 BTCUSDT order at 64999?'));
    expect(calls.some((c) => c.method === 'delete')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'delete').map((c) => c.url)).toEqual([`/v1/trade/${KEY.id}/orders/o1`]));
    userSettings.confirmCancelOrder = false;
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the buy limit 0.01 at 64999' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'delete')).toHaveLength(2));
  });

  it('at a funded user’s daily loss limit shows the banner and places only what reduces the position (reduce-only)', async () => {
    locked = true;
    await ladder();
    expect(await screen.findByTestId('day-lock-banner')).toBeInTheDocument();
    clickCell('64999', 'bid');
    expect(await screen.findByTestId('dom-ladder-message')).toHaveTextContent('Daily loss limit reached: only orders that reduce the position until 00:00 UTC');
    clickCell('65001', 'ask');
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0].body).toMatchObject({ side: 'SELL', type: 'LIMIT', price: '65001', reduceOnly: true });
  });

  it('a locked key shows the unlock prompt, as every trading panel, and trades nothing', async () => {
    userSettings.apiKeyPasswords = {};
    renderPanel();
    expect(await screen.findByTestId('unlock-key', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('dom-ladder')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/v1/trade/'))).toBe(false);
  });
});
