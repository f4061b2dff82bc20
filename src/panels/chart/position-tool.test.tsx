import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { Instrument } from '../../api/contracts/exchanges';
import type { Balance, Order, Position } from '../../api/contracts/trading';
import type { ChartEngine, ChartEvents, PositionPlan, PositionToolOptions, Tool } from '../../engine';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { toastFailure, toastSuccess } from '../../ui/toast';
import { DrawingToolbar } from './drawing-toolbar';
import { PositionCard } from './position-card';
import { usePositionExit } from './use-position-exit';
import { usePositionTool } from './use-position-tool';

vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));
vi.mock('../../ui/toast', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../ui/toast')>();
  return { ...real, toastFailure: vi.fn(() => ''), toastSuccess: vi.fn(() => ''), toastInfo: vi.fn(() => '') };
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
const balance: Balance = { currency: 'USDT', total: '10012.5', available: '9000', unrealisedPnl: '12.5', marginUsed: '1000', assets: [] };
const instrument: Instrument = { symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 };
const plan: PositionPlan = { time: 1, side: 'long', entry: 65000, stop: 64000, targets: [66000, 67000, 68000] };

const openPosition: Position = { exchange: 'binance', symbol: 'BTCUSDT', side: 'BUY', size: '0.01', baseQty: '0.01', notional: '650', entryPrice: '65000', markPrice: '65100', liquidationPrice: null, breakEvenPrice: '65050', unrealisedPnl: '1', realisedPnl: '0', leverage: '10', marginMode: 'CROSS', margin: '65', category: 'linear' };

let posted: unknown[];
let positionsRead: boolean;
let custody: boolean;
let refuse: string | null;
const originalAdapter = http.defaults.adapter;
const ok = (config: InternalAxiosRequestConfig, data: unknown, status = 200) => ({ data, status, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  const base = `/v1/trade/${KEY.id}`;
  if (config.url === '/v1/api-keys') return ok(config, [{ ...KEY, serverCustody: custody }]);
  if (config.url === `/v1/api-keys/${KEY.id}/server-custody`) {
    custody = config.method === 'put';
    return ok(config, { ...KEY, serverCustody: custody });
  }
  if (config.url === '/v1/config') return ok(config, { marketData: 'sim', productName: 'Crypto Terminal' });
  if (config.url === `${base}/balance`) return ok(config, balance);
  if (config.url === `${base}/brackets` && config.method === 'post') {
    if (refuse) {
      const response = { data: { message: refuse }, status: 400, statusText: 'Bad Request', headers: {}, config };
      throw new AxiosError('Request failed with status code 400', 'ERR_BAD_REQUEST', config, null, response);
    }
    const body = JSON.parse(String(config.data)) as { clientOrderId: string };
    posted.push(body);
    return ok(config, { bracketId: 'BKaaaaaaaaaaaaaaaaaa', orders: [], planned: [], managed: false }, 201);
  }
  if (config.url === `${base}/positions`) {
    positionsRead = true;
    return ok(config, [openPosition]);
  }
  if (config.url === `${base}/orders` && config.method === 'post') {
    const body = JSON.parse(String(config.data)) as Partial<Order>;
    posted.push(body);
    return ok(config, { ...body, id: 'x1', exchange: 'binance', status: 'NEW', filledQty: '0', price: body.price ?? null, triggerPrice: body.triggerPrice ?? null, avgFillPrice: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), bracketId: null, role: null, clientOrderId: null });
  }
  return ok(config, []);
};

/** The engine as the hook sees it: events the test emits, the tool it was set to, the labels it was given. */
function fakeEngine() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  let tool: Tool = 'default';
  let options: PositionToolOptions = {};
  const engine = {
    on: (event: string, fn: (p: unknown) => void) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(fn);
      return () => handlers.get(event)!.delete(fn);
    },
    setTool: (t: Tool) => {
      tool = t;
    },
    getTool: () => tool,
    setPositionOptions: (o: PositionToolOptions) => {
      options = { ...options, ...o };
    },
  };
  return {
    engine: engine as unknown as ChartEngine,
    tool: () => tool,
    labels: (p: PositionPlan) => options.labels?.(p),
    emit: <K extends keyof ChartEvents>(event: K, payload: ChartEvents[K]) => act(() => handlers.get(event)?.forEach((fn) => fn(payload))),
  };
}

const MARKET = { exchange: 'binance', symbol: 'BTCUSDT' };
const TICK = { current: 0.1 };

function Harness({ engine, redraw }: { engine: ChartEngine; redraw: () => void }) {
  const tool = usePositionTool(engine, MARKET, instrument);
  const exitDialog = usePositionExit(engine, MARKET, TICK, redraw);
  return (
    <>
      {exitDialog}
      <DrawingToolbar fibEnabled position={tool} />
      <PositionCard tool={tool} symbol="BTCUSDT" />
    </>
  );
}

/** As the app's client: a failed mutation toasts the server's message, else its endpoint's fallback. */
const queryClient = () =>
  new QueryClient({
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => toastFailure(error, String(mutation.meta?.errorMessage)) }),
    defaultOptions: { queries: { retry: false }, mutations: { retry: 0 } },
  });

function renderTool() {
  const fake = { ...fakeEngine(), redraw: vi.fn() };
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient()}>
        <Harness engine={fake.engine} redraw={fake.redraw} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fake;
}

beforeEach(() => {
  posted = [];
  positionsRead = false;
  custody = false;
  refuse = null;
  vi.mocked(toastFailure).mockClear();
  vi.mocked(toastSuccess).mockClear();
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT', apiKeyId: KEY.id, apiKeyPasswords: { [KEY.id]: 'key-pass-1' }, maxRisk: 1.5 });
});

afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('the chart position tool', () => {
  it('sizes the position at the user’s risk %, labels the levels, and places the bracket after the key’s custody consent', async () => {
    const fake = renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'Position' }));
    expect(fake.tool()).toBe('position');
    const card = await screen.findByTestId('position-card');
    expect(card).toHaveTextContent('Click the stop, then the entry');
    fake.emit('positionChanged', plan);
    // 1.5 % of 9,000 USDT available over a 1,000 stop: 0.135 BTC.
    await waitFor(() => expect(within(card).getByTestId('position-size')).toHaveTextContent('0.135'));
    expect(within(card).getByTestId('position-side')).toHaveTextContent('Long');
    expect(within(card).getByTestId('position-target-2')).toHaveTextContent('67000 · 2R');
    expect(card).toHaveTextContent('135 USDT');
    expect(fake.labels(plan)).toEqual({ entry: 'Long 0.135 @ 65000', stop: 'Stop 64000 · −135.00 USDT', targets: ['TP1 66000 · 1R', 'TP2 67000 · 2R', 'TP3 68000 · 3R'] });
    // A quick pick sizes this position at another risk; the labels follow.
    fireEvent.click(within(card).getByText('1%'));
    await waitFor(() => expect(within(card).getByTestId('position-size')).toHaveTextContent('0.09'));
    expect(fake.labels(plan)?.entry).toBe('Long 0.09 @ 65000');
    fireEvent.click(within(card).getByText('1.5%'));
    await waitFor(() => expect(within(card).getByTestId('position-size')).toHaveTextContent('0.135'));

    fireEvent.click(within(card).getByTestId('position-place'));
    const consent = await screen.findByRole('dialog', { name: /^Let the server guard brackets with Main/ });
    expect(posted).toHaveLength(0);
    fireEvent.click(within(consent).getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: '0.135',
      entry: { type: 'LIMIT', price: '65000' },
      stopLoss: { triggerPrice: '64000' },
      takeProfits: [
        { price: '66000', qtyPercent: 33.33 },
        { price: '67000', qtyPercent: 33.33 },
        { price: '68000', qtyPercent: 33.34 },
      ],
    });
    await waitFor(() => expect(screen.queryByTestId('position-card')).toBeNull());
    expect(fake.tool()).toBe('default');
    expect(toastSuccess).toHaveBeenCalledWith('Placed: the bracket on BTCUSDT — entry, stop-loss and 3 take-profits');
  });

  it('a refusal toasts the server’s message and keeps the position for another try', async () => {
    custody = true;
    refuse = 'Max risk per trade is 1 %';
    const fake = renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'Position' }));
    fake.emit('positionChanged', plan);
    const place = await screen.findByTestId('position-place');
    await waitFor(() => expect(place).toBeEnabled());
    fireEvent.click(place);
    await waitFor(() => expect(toastFailure).toHaveBeenCalledWith(expect.objectContaining({ response: expect.objectContaining({ data: { message: 'Max risk per trade is 1 %' } }) }), 'The bracket was refused'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('position-card')).toBeInTheDocument();
    expect(fake.tool()).toBe('position');
  });

  it('with the key locked it says to unlock in Order entry and places nothing', async () => {
    userSettings.apiKeyPasswords = {};
    const fake = renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'Position' }));
    fake.emit('positionChanged', plan);
    await waitFor(() => expect(screen.getByTestId('position-note')).toHaveTextContent('Unlock the key in Order entry to place'));
    expect(screen.getByTestId('position-place')).toBeDisabled();
  });

  it('Escape in the engine (back to Select) and Cancel both close the card', async () => {
    const fake = renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'Position' }));
    await screen.findByTestId('position-card');
    fake.emit('toolChanged', { tool: 'default' });
    await waitFor(() => expect(screen.queryByTestId('position-card')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Position' }));
    fireEvent.click(await screen.findByTestId('position-cancel'));
    await waitFor(() => expect(screen.queryByTestId('position-card')).toBeNull());
    expect(fake.tool()).toBe('default');
  });

  it('a drag off the position line adds a reduce-only take-profit above a long’s entry, after a yes; the line goes back', async () => {
    const fake = renderTool();
    await waitFor(() => expect(positionsRead).toBe(true));
    // Dropped until the position has been read (a drag before that adds nothing).
    await waitFor(() => {
      fake.emit('lineDragged', { id: 'position:entry', line: { id: 'position:entry', kind: 'position', price: 65000 }, price: 66000.04 });
      expect(screen.getByRole('dialog', { name: 'Add a take-profit' })).toBeInTheDocument();
    });
    const dialog = screen.getByRole('dialog', { name: 'Add a take-profit' });
    expect(fake.redraw).toHaveBeenCalled();
    expect(dialog).toHaveTextContent('sell 0.01 BTCUSDT at 66000, reduce-only (limit)?');
    expect(posted).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '66000', qty: '0.01', reduceOnly: true });

    fake.emit('lineDragged', { id: 'position:entry', line: { id: 'position:entry', kind: 'position', price: 65000 }, price: 64000 });
    const stop = await screen.findByRole('dialog', { name: 'Add a stop-loss' });
    fireEvent.click(within(stop).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a stop-loss' })).toBeNull());
    expect(posted).toHaveLength(1);
  });
});
