import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import type { PanelProps } from '../shared/panel-props';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiClient, http } from '../../api/client';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { Balance, Order, Position } from '../../api/contracts/trading';
import { tradingHotkeys } from '../../state/hotkeys';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { WorkstationHotkeys } from '../workstation/hotkeys-help';
import { BalancePanel } from './balance-panel';
import { OrderEntryPanel } from './order-entry-panel';
import { OrdersPanel } from './orders-panel';
import { PositionsPanel } from './positions-panel';

// The account stream is the server's (tested there); here the panels read the REST answers.
vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

const KEY: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  userId: '22222222-2222-4222-8222-222222222222',
  name: 'Main',
  exchange: 'binance',
  network: 'MAINNET',
  apiKeyMasked: 'sim…abcd',
  permissions: { read: true, trade: true, withdraw: false, details: [] },
  createdAt: '2026-01-01T00:00:00.000Z',
  lastValidatedAt: null, serverCustody: false,
};
const balance: Balance = { currency: 'USDT', total: '10012.5', available: '9000', unrealisedPnl: '12.5', marginUsed: '1000', assets: [] };
/** What exchange-info states for a USDT-margined pair (the terms the tests' settings also hold). */
const linearInstrument = (symbol: string) => ({ symbol, exchangeSymbol: symbol, base: symbol.replace(/USDT$/, ''), quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 });

const position = (symbol: string): Position => ({ exchange: 'binance', symbol, side: 'BUY', size: '0.01', baseQty: '0.01', notional: '650', entryPrice: '65000', markPrice: '66250', liquidationPrice: null, breakEvenPrice: '65050', unrealisedPnl: '12.5', realisedPnl: '0', leverage: '10', marginMode: 'CROSS', margin: '65', category: 'linear' });
const order = (id: string, symbol: string): Order => ({ id, clientOrderId: null, exchange: 'binance', symbol, side: 'BUY', type: 'LIMIT', status: 'NEW', qty: '0.01', filledQty: '0', price: '60000', triggerPrice: null, avgFillPrice: null, reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), bracketId: null, role: null });

let calls: string[];
let posted: unknown[];
let custody: boolean;
let managedList: unknown[];
let flags: Record<string, boolean>;
const originalAdapter = http.defaults.adapter;
const ok = (config: InternalAxiosRequestConfig, data: unknown) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  calls.push(`${config.method} ${config.url} ${String(config.headers?.['X-Key-Password'] ?? '')}`);
  const base = `/v1/trade/${KEY.id}`;
  if (config.url === '/v1/api-keys') return ok(config, [{ ...KEY, serverCustody: custody }]);
  if (config.url === `/v1/api-keys/${KEY.id}/unlock`) {
    if (config.headers?.['X-Key-Password'] !== 'wrong-pass-1') return { data: null, status: 204, statusText: 'No Content', headers: {}, config };
    const response = { data: { message: 'Wrong key password', fields: { keyPassword: 'Wrong key password' } }, status: 403, statusText: 'Forbidden', headers: {}, config };
    throw new AxiosError('Request failed with status code 403', 'ERR_BAD_REQUEST', config, null, response);
  }
  if (config.url === `/v1/api-keys/${KEY.id}/server-custody`) {
    custody = config.method === 'put';
    return ok(config, { ...KEY, serverCustody: custody });
  }
  if (config.url === `${base}/managed`) return ok(config, managedList);
  if (config.url === `${base}/brackets` && config.method === 'post') {
    posted.push(JSON.parse(String(config.data)));
    return ok(config, { bracketId: 'BKaaaaaaaaaaaaaaaaaa', orders: [], managed: true });
  }
  if (config.url?.startsWith('/v1/feature-flags')) return ok(config, flags);
  if (config.url === '/v1/users/settings') return ok(config, { riskOptions: [0.5, 1], stopLossOptions: [1, 2] });
  if (config.url === `/v1/trade/${KEY.id}/ladders` && config.method === 'post') {
    posted.push(JSON.parse(String(config.data)));
    return ok(config, []);
  }
  if (config.url === '/v1/config') return ok(config, { marketData: 'sim', productName: 'Crypto Terminal' });
  if (config.url === `${base}/balance`) return ok(config, balance);
  if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [linearInstrument('BTCUSDT'), linearInstrument('ETHUSDT')]);
  if (config.url === `${base}/symbol-settings`) return ok(config, { symbol: String(config.params?.symbol), leverage: '10', marginMode: 'CROSS' });
  if (config.url === `${base}/limits`) return ok(config, { funded: false, dailyLossLimit: null, lossToday: '0', locked: false, lockedUntil: null, reason: null });
  if (config.url === `${base}/positions`) return ok(config, [position('BTCUSDT'), position('ETHUSDT')]);
  if (config.url === `${base}/orders` && config.method === 'get') return ok(config, [order('o1', 'BTCUSDT'), order('o2', 'ETHUSDT')]);
  if (config.url === `${base}/orders/o1` && config.method === 'delete') return ok(config, { ...order('o1', 'BTCUSDT'), status: 'CANCELED' });
  throw new Error(`unexpected ${config.method} ${config.url}`);
};

const node = {} as TabNode;
function renderPanel(Panel: ComponentType<PanelProps>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <Panel node={node} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeEach(() => {
  calls = [];
  posted = [];
  flags = {};
  custody = false;
  managedList = [];
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT', apiKeyId: KEY.id, apiKeyPasswords: { [KEY.id]: 'key-pass-1' } });
});

afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('trading panels', () => {
  it('Balance: total by default, available when chosen, masked when masking is on; the key password goes in the header', async () => {
    renderPanel(BalancePanel);
    // The file's first render also loads the panel's modules: a roomier wait than the default second (a hang guard, not a speed limit).
    expect(await screen.findByTestId('balance-headline', {}, { timeout: 10_000 })).toHaveTextContent('10012.50 USDT');
    expect(calls).toContain(`get /v1/trade/${KEY.id}/balance key-pass-1`);
    userSettings.balanceType = 'available';
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('9000.00 USDT'));
    userSettings.maskBalance = true;
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('••••'));
    expect(screen.getByTestId('balance')).not.toHaveTextContent('USDT');
    // A currency no price links to: shown in the account's own, saying so.
    Object.assign(userSettings, { maskBalance: false, balanceCurrency: 'BTC' });
    await waitFor(() => expect(screen.getByTestId('balance-rate')).toHaveTextContent('No BTC price on this exchange: shown in USDT'));
    expect(screen.getByTestId('balance-headline')).toHaveTextContent('9000.00 USDT');
    // USD is shown one for one with USDT, marked as approximate.
    userSettings.balanceCurrency = 'USD';
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('≈ 9000.00 USD'));
  });

  it('Positions: every pair, or only the traded one with hide-other-symbols; PnL with its % of margin', async () => {
    renderPanel(PositionsPanel);
    const table = await screen.findByTestId('positions-table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(table).toHaveTextContent('+12.50 USDT (19.23 %)');
    userSettings.hideOtherSymbolsPositions = true;
    await waitFor(() => expect(within(screen.getByTestId('positions-table')).getAllByRole('row')).toHaveLength(2));
    expect(screen.getByTestId('positions-table')).not.toHaveTextContent('ETHUSDT');
  });

  it('Orders: cancel asks first (confirm flag on), then cancels; with the flag off it cancels at once', async () => {
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    fireEvent.click(within(table).getByRole('button', { name: 'Cancel BTCUSDT Limit' }));
    expect(calls.some((c) => c.startsWith('delete'))).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls).toContain(`delete /v1/trade/${KEY.id}/orders/o1 key-pass-1`));
    calls = [];
    userSettings.confirmCancelOrder = false;
    userSettings.hideOtherSymbolsOrders = true;
    await waitFor(() => expect(within(screen.getByTestId('orders-table')).getAllByRole('row')).toHaveLength(2));
    fireEvent.click(within(screen.getByTestId('orders-table')).getByRole('button', { name: 'Cancel BTCUSDT Limit' }));
    await waitFor(() => expect(calls).toContain(`delete /v1/trade/${KEY.id}/orders/o1 key-pass-1`));
  });

  it('without a password the key asks for it; "remember" keeps it on this device, forget removes it', async () => {
    userSettings.apiKeyPasswords = {};
    renderPanel(BalancePanel);
    const unlock = await screen.findByTestId('unlock-key');
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'typed-pass-1' } });
    fireEvent.click(within(unlock).getByLabelText('Remember on this device'));
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('balance-headline')).toBeInTheDocument();
    expect(userSettings.apiKeyPasswords[KEY.id]).toBe('typed-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Forget password' }));
    await screen.findByTestId('unlock-key');
    expect(userSettings.apiKeyPasswords[KEY.id]).toBeUndefined();
    // The server's unlock for this sign-in ends too (issue 25).
    await waitFor(() => expect(calls).toContain(`delete /v1/api-keys/${KEY.id}/unlock `));
  });

  it('Order entry: without FF_LADDER_ORDERS a stored ladder choice falls back to the bracket form', async () => {
    Object.assign(userSettings, { orderType: 'ladder-order' });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    expect(within(entry).queryByLabelText('From price')).toBeNull();
  });

  it('Order entry: the ladder (FF_LADDER_ORDERS) sends count orders between two prices, snapped to the tick', async () => {
    flags = { FF_LADDER_ORDERS: true };
    Object.assign(userSettings, { orderType: 'ladder-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('From price')).toBeInTheDocument());
    fireEvent.change(within(entry).getByLabelText('From price'), { target: { value: '60000.04' } });
    fireEvent.blur(within(entry).getByLabelText('From price'));
    expect(within(entry).getByLabelText('From price')).toHaveValue('60000');
    fireEvent.change(within(entry).getByLabelText('To price'), { target: { value: '59000' } });
    fireEvent.change(within(entry).getByLabelText(/^Size/), { target: { value: '0.05' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    // With a client id: a retry of the same ladder is answered by the server, never placed twice.
    await waitFor(() =>
      expect(posted).toEqual([{ symbol: 'BTCUSDT', side: 'BUY', qty: '0.05', from: '60000', to: '59000', count: 5, distribution: 'linear', reduceOnly: false, postOnly: false, clientOrderId: expect.stringMatching(/^ct[A-Za-z0-9]+$/) }]),
    );
  });

  it('Order entry: "managed by server" (FF_ENABLE_SEMI_AUTO) is explained and off until the key is allowed; then the bracket carries it', async () => {
    flags = { FF_ENABLE_SEMI_AUTO: true };
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const box = await screen.findByTestId('managed-bracket');
    const breakEven = within(box).getByLabelText('Move the stop to break-even when take-profit 1 fills');
    expect(breakEven).toBeDisabled();
    expect(box).toHaveTextContent('It needs your permission to keep this key');
    fireEvent.click(within(box).getByRole('button', { name: 'Allow for Main…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    expect(dialog).toHaveTextContent('deleted when the last one ends or when you turn this off');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(calls).toContain(`put /v1/api-keys/${KEY.id}/server-custody `));
    await waitFor(() => expect(within(screen.getByTestId('managed-bracket')).getByLabelText('Move the stop to break-even when take-profit 1 fills')).toBeEnabled());

    const entry = screen.getByTestId('order-entry');
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59000' } });
    fireEvent.click(within(entry).getByText('Size'));
    fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
    fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '62000' } });
    const managedBox = screen.getByTestId('managed-bracket');
    fireEvent.click(within(managedBox).getByLabelText('Move the stop to break-even when take-profit 1 fills'));
    fireEvent.click(within(managedBox).getByLabelText('Trail the stop by'));
    // A trail without a distance says so at the field and sends nothing.
    fireEvent.click(within(entry).getByTestId('place-order'));
    expect(await within(managedBox).findByText('Enter the trailing distance')).toBeInTheDocument();
    expect(posted).toEqual([]);
    fireEvent.change(within(managedBox).getByLabelText('Trailing distance'), { target: { value: '1.5' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: '0.01',
      entry: { type: 'LIMIT', price: '60000' },
      stopLoss: { triggerPrice: '59000' },
      managed: { breakEven: true, trail: { mode: 'percent', value: '1.5' } },
    });
  });

  it('Orders: the rows of a bracket the server manages say so', async () => {
    flags = { FF_ENABLE_SEMI_AUTO: true };
    managedList = [{ bracketId: 'BKbbbbbbbbbbbbbbbbbb', symbol: 'BTCUSDT', side: 'BUY', options: { breakEven: true, trail: null }, phase: 'open', planned: [], state: 'running', breakEvenDone: false, message: null, createdAt: '2026-01-01T00:00:00.000Z' }];
    const base = `/v1/trade/${KEY.id}`;
    const managedOrder: Order = { ...order('o3', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', clientOrderId: 'BKbbbbbbbbbbbbbbbbbbS', bracketId: 'BKbbbbbbbbbbbbbbbbbb', role: 'stop-loss', triggerPrice: '59000', price: null };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => (config.url === `${base}/orders` && config.method === 'get' ? ok(config, [order('o1', 'BTCUSDT'), managedOrder]) : inner(config));
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    await waitFor(() => expect(within(table).getAllByTestId('managed-badge')).toHaveLength(1));
    const rows = within(table).getAllByRole('row');
    expect(rows.find((r) => r.textContent?.includes('59000'))).toHaveTextContent('managed by server');
  });

  /** Fills the bracket form: limit entry 60000, stop 59000, size 0.01, one target 62000. */
  function fillBracket(entry: HTMLElement) {
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59000' } });
    fireEvent.click(within(entry).getByText('Size'));
    fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
    fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '62000' } });
  }

  it('Order entry: the first bracket on a key asks for the server-custody consent; "Not now" sends nothing, "Allow" sends the bracket once', async () => {
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    fireEvent.click(within(entry).getByTestId('place-order'));
    let dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    expect(dialog).toHaveTextContent("places a resting entry’s stop-loss and take-profits the moment the entry fills");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([]);

    fireEvent.click(within(entry).getByTestId('place-order'));
    dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(calls.filter((c) => c.startsWith(`put /v1/api-keys/${KEY.id}/server-custody`))).toHaveLength(1);
    expect(posted[0]).toMatchObject({ entry: { type: 'LIMIT', price: '60000' }, stopLoss: { triggerPrice: '59000' }, clientOrderId: expect.stringMatching(/^ct/) });
    // Allowed now: the next bracket goes straight out (once the first has been answered).
    await waitFor(() => expect(within(entry).getByTestId('place-order')).not.toHaveAttribute('data-loading'));
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect((posted[1] as { clientOrderId: string }).clientOrderId).not.toBe((posted[0] as { clientOrderId: string }).clientOrderId);
  });

  it('Orders: an entry whose stop and targets wait for the fill says what goes on when it fills', async () => {
    managedList = [
      {
        bracketId: 'BKcccccccccccccccccc',
        symbol: 'BTCUSDT',
        side: 'BUY',
        options: null,
        phase: 'waiting',
        planned: [
          { role: 'stop-loss', type: 'STOP_MARKET', side: 'SELL', qty: '0.01', price: null, triggerPrice: '59000', clientOrderId: 'BKccccccccccccccccccS' },
          { role: 'take-profit', type: 'TAKE_PROFIT', side: 'SELL', qty: '0.01', price: '62000', triggerPrice: '62000', clientOrderId: 'BKccccccccccccccccccT1' },
        ],
        state: 'running',
        breakEvenDone: false,
        message: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ];
    const base = `/v1/trade/${KEY.id}`;
    const entryOrder: Order = { ...order('o4', 'BTCUSDT'), clientOrderId: 'BKccccccccccccccccccE', bracketId: 'BKcccccccccccccccccc', role: 'entry' };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => (config.url === `${base}/orders` && config.method === 'get' ? ok(config, [entryOrder]) : inner(config));
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    expect(await within(table).findByTestId('planned-legs')).toHaveTextContent('then SL 59000 · TP 62000 when filled');
    expect(within(table).queryByTestId('managed-badge')).toBeNull();
  });

  it.each([
    ['bracket-order', 'market entry, size from risk'],
    ['bracket-order', 'limit entry, size by hand'],
    ['market', ''],
    ['limit', ''],
    ['stop-market', ''],
    ['stop-limit', ''],
    ['take-profit', ''],
    ['ladder-order', ''],
  ])('Order entry (%s %s): any text typed key by key into any number field never breaks the panel, and nothing is sent', async (orderType, variant) => {
    flags = { FF_LADDER_ORDERS: true };
    Object.assign(userSettings, { orderType, tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByTestId('place-order')).toBeInTheDocument());
    if (variant.startsWith('limit entry')) fireEvent.click(within(entry).getByText('Limit entry'));
    if (variant.endsWith('by hand')) fireEvent.click(within(entry).getByText('Size'));
    const fields = within(entry).getAllByRole('textbox').filter((f) => f.getAttribute('inputmode') === 'decimal');
    expect(fields.length).toBeGreaterThan(0);
    const tricky = fc.constantFrom('0.', '.', '0.05', '0,05', 'abc', '1e5', '-1', ' 7 ', '00.0.0', '٣', '∞', '1_000', '0x1f', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(fields.length - 1), fc.oneof(tricky, fc.string({ maxLength: 8 }))), { minLength: 1, maxLength: 4 }), (typing) => {
        for (const [i, text] of typing) {
          // Key by key, as a trader types: every prefix is rendered.
          for (let n = 0; n <= text.length; n++) fireEvent.change(fields[i]!, { target: { value: text.slice(0, n) } });
          expect(screen.queryByTestId('part-error')).toBeNull();
          expect(screen.getByTestId('order-entry')).toBeInTheDocument();
        }
      }),
      { numRuns: 12, seed: 21 },
    );
    // A typo is said at its field; pressing the button then sends nothing.
    fireEvent.change(fields[0]!, { target: { value: '0,05' } });
    expect(within(entry).getByText('Use a point, not a comma (0.05)')).toBeInTheDocument();
    fireEvent.click(within(entry).getByTestId('place-order'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
  });

  it('Order entry on an OKX inverse swap: sized from the BTC balance and the 100 USD contract, risk in BTC and in USD (never the USDT total read as BTC)', async () => {
    const okxKey = { ...KEY, exchange: 'okx' as const };
    const coinBalance: Balance = { currency: 'USDT', total: '10000', available: '10000', unrealisedPnl: '0', marginUsed: '0', assets: [{ currency: 'USDT', total: '10000', available: '10000' }, { currency: 'BTC', total: '0.5', available: '0.5' }] };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === '/v1/api-keys') return ok(config, [{ ...okxKey, serverCustody: true }]);
      if (config.url === `/v1/trade/${KEY.id}/balance`) return ok(config, coinBalance);
      return inner(config);
    };
    Object.assign(userSettings, {
      exchangeName: 'okx',
      tradingPair: 'BTCUSD',
      orderType: 'bracket-order',
      category: 'inverse',
      contractValue: 100,
      settleCurrency: 'BTC',
      tickSize: 0.1,
      stepSize: 1,
      minQty: 1,
      maxQty: 1000000,
    });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59400' } });
    fireEvent.click(within(entry).getByText('0.5%'));
    // 0.5 % of 0.5 BTC = 0.0025 BTC; one contract loses 100 × (1/59400 − 1/60000) BTC → 148 contracts (of 100 USD each).
    await waitFor(() => expect(within(entry).getByTestId('risk-size')).toHaveTextContent(/^Size 148 ≈ \$14,800/));
    expect(within(entry).getByTestId('risk-amount')).toHaveTextContent('0.00249158 BTC ≈ $149.49');
    // The one line that stays above the button, whatever scrolls.
    expect(within(entry).getByTestId('order-summary')).toHaveTextContent('Risk 0.00249158 BTC (0.5 %) · ≈ $14,800');
  });

  it('Orders: "Execute" on a waiting stop asks first (the close-position confirm flag), then trades; with the flag off it acts at once', async () => {
    flags = { FF_ENABLE_EXECUTE_NON_TRIGGERED: true };
    const base = `/v1/trade/${KEY.id}`;
    const waiting: Order = { ...order('o5', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', status: 'UNTRIGGERED', price: null, triggerPrice: '59000', reduceOnly: true };
    const executed: string[] = [];
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/orders` && config.method === 'get') return ok(config, [waiting]);
      if (config.url === `${base}/orders/o5/execute` && config.method === 'post') {
        executed.push('o5');
        return ok(config, { ...waiting, type: 'MARKET', status: 'FILLED' });
      }
      return inner(config);
    };
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    await waitFor(() => expect(within(table).getByRole('button', { name: 'Execute BTCUSDT Stop market now' })).toBeInTheDocument());
    fireEvent.click(within(table).getByRole('button', { name: 'Execute BTCUSDT Stop market now' }));
    const yes = await screen.findByRole('button', { name: 'Yes' });
    expect(screen.getByText('Sell 0.01 BTCUSDT at market now (reduces the position)?')).toBeInTheDocument();
    expect(executed).toEqual([]);
    fireEvent.click(yes);
    await waitFor(() => expect(executed).toEqual(['o5']));

    Object.assign(userSettings, { confirmClosePosition: false });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Yes' })).toBeNull());
    fireEvent.click(within(screen.getByTestId('orders-table')).getByRole('button', { name: 'Execute BTCUSDT Stop market now' }));
    await waitFor(() => expect(executed).toEqual(['o5', 'o5']));
  });

  it('Trading hotkeys: off by default; on, Shift+B presses Order entry\'s Buy — the bracket the form shows, never a naked market order', async () => {
    custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    const WithHotkeys = ({ node: n }: PanelProps) => (
      <>
        <OrderEntryPanel node={n} />
        <WorkstationHotkeys />
      </>
    );
    renderPanel(WithHotkeys);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    const shiftKey = (code: string) => fireEvent.keyDown(window, { code, key: code.slice(3), shiftKey: true });

    tradingHotkeys.on = false;
    shiftKey('KeyB');
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
    expect(calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);

    tradingHotkeys.on = true;
    try {
      shiftKey('KeyB');
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]).toMatchObject({ side: 'BUY', entry: { type: 'LIMIT', price: '60000' }, stopLoss: { triggerPrice: '59000' }, takeProfits: [{ price: '62000', qtyPercent: 100 }] });
      expect(calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);
      // The other side's key turns the form round and sends nothing: its stop was set for a buy.
      await waitFor(() => expect(within(entry).getByTestId('place-order')).not.toHaveAttribute('data-loading'));
      shiftKey('KeyS');
      await waitFor(() => expect(within(entry).getByTestId('place-order')).toHaveTextContent(/^Sell/));
      expect(posted).toHaveLength(1);
    } finally {
      tradingHotkeys.on = false;
    }
  });

  it('Unlock: a wrong key password keeps the unlock form and says so once, at the field; the right one unlocks', async () => {
    userSettings.apiKeyPasswords = {};
    renderPanel(OrderEntryPanel);
    const unlock = await screen.findByTestId('unlock-key');
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'wrong-pass-1' } });
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await within(unlock).findByText('Wrong key password')).toBeInTheDocument();
    expect(screen.queryByTestId('order-entry')).toBeNull();
    // Nothing traded with the wrong password: only the check itself was sent.
    expect(calls.filter((c) => c.includes('wrong-pass-1') && !c.includes('/unlock'))).toEqual([]);
    expect(calls.filter((c) => c.startsWith(`post /v1/api-keys/${KEY.id}/unlock`))).toHaveLength(1);
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'key-pass-1' } });
    expect(within(unlock).queryByText('Wrong key password')).toBeNull();
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('order-entry')).toBeInTheDocument();
  });

  it('Order entry: a stop on the wrong side is said at the stop-loss field as it is typed, a price of 0 at its field; nothing is sent', async () => {
    custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '61000' } });
    fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '59000' } });
    expect(within(entry).getByText("A buy's stop-loss goes below the entry (60000)")).toBeInTheDocument();
    expect(within(entry).getByText("A buy's take-profit goes above the entry (60000)")).toBeInTheDocument();
    fireEvent.click(within(entry).getByTestId('place-order'));
    await new Promise((r) => setTimeout(r, 50));
    expect(within(entry).getByTestId('risk-size')).not.toHaveTextContent('Enter a size');
    expect(posted).toEqual([]);

    // A limit at 0: at the price field, in words (never the contract's raw issue list).
    fireEvent.click(within(entry).getByText('Size'));
    Object.assign(userSettings, { orderType: 'limit' });
    await waitFor(() => expect(within(entry).getByLabelText('Price')).toBeInTheDocument());
    fireEvent.change(within(entry).getByLabelText('Price'), { target: { value: '0' } });
    fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    expect(await within(entry).findByText('Must be above 0')).toBeInTheDocument();
    expect(calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);
  });

  it('A bracket refused part-way whose undoing failed (207): a warning names the live leg, and Orders marks its row', async () => {
    custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    const base = `/v1/trade/${KEY.id}`;
    const stopLeft: Order = { ...order('o6', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', status: 'UNTRIGGERED', price: null, triggerPrice: '59000', reduceOnly: true, clientOrderId: 'BKdddddddddddddddddddS', bracketId: 'BKdddddddddddddddddd', role: 'stop-loss' };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/brackets` && config.method === 'post') {
        posted.push(JSON.parse(String(config.data)));
        return {
          ...ok(config, {
            bracketId: 'BKdddddddddddddddddd',
            orders: [stopLeft],
            planned: [],
            managed: false,
            partial: { message: 'Take-profit 1 was refused (…). Still live: the stop-loss — check the Orders panel.', live: [{ role: 'stop-loss', orderId: 'o6', clientOrderId: stopLeft.clientOrderId!, state: 'open' }] },
          }),
          status: 207,
        };
      }
      if (config.url === `${base}/orders` && config.method === 'get') return ok(config, [stopLeft]);
      return inner(config);
    };
    const Both = ({ node: n }: PanelProps) => (
      <>
        <OrderEntryPanel node={n} />
        <OrdersPanel node={n} />
      </>
    );
    renderPanel(Both);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(await screen.findByTestId('left-live-badge')).toHaveTextContent('left live by a refused bracket: cancel it');
  });

  it('Coin-margined amounts are readable: an inverse position\'s PnL in its coin with 8 decimals, the coin balance listed in Balance', async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inverse: Position = { ...position('BTCUSD'), category: 'inverse', size: '10', unrealisedPnl: '-0.00001503', realisedPnl: '0.00002', margin: '0.0016' };
    const coinBalance: Balance = { ...balance, assets: [{ currency: 'USDT', total: '10012.5', available: '9000' }, { currency: 'BTC', total: '0.5', available: '0.4984' }] };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, [inverse]);
      if (config.url === `${base}/balance`) return ok(config, coinBalance);
      // The coin comes from the instrument (its settle currency), not from the symbol's letters.
      if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [{ symbol: 'BTCUSD', exchangeSymbol: 'BTCUSD', base: 'BTC', quote: 'USD', settle: 'BTC', category: 'inverse', tickSize: '0.5', stepSize: '1', minQty: '1', maxQty: '1000000', contractValue: '1', precision: 1, quantityPrecision: 0 }]);
      return inner(config);
    };
    renderPanel(PositionsPanel);
    expect(await screen.findByTestId('position-pnl')).toHaveTextContent('-0.00001503 BTC (-0.94 %)');
    cleanup();
    renderPanel(BalancePanel);
    expect(await screen.findByTestId('balance-assets', {}, { timeout: 5000 })).toHaveTextContent('BTC0.50000000 BTCavailable 0.49840000 BTC');
  });

  it("Order entry shows the account's leverage and margin mode for the pair with no position open (read from the exchange)", async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, []);
      if (config.url === `${base}/symbol-settings`) return ok(config, { symbol: String(config.params?.symbol), leverage: '7', marginMode: 'ISOLATED' });
      return inner(config);
    };
    Object.assign(userSettings, { orderType: 'market', leverageMode: 'CROSS', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    expect(await within(entry).findByTestId('account-leverage')).toHaveTextContent('On the account: 7× isolated');
    await waitFor(() => expect(within(entry).getByLabelText('Leverage')).toHaveValue('7'));
    expect(within(entry).getByRole('radio', { name: 'Isolated' })).toBeChecked();
  });

  it("Order entry follows the account's leverage and margin mode for the pair (the position's), and refuses a leverage above the instrument's maximum at the field", async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, [{ ...position('BTCUSDT'), leverage: '20', marginMode: 'CROSS' }]);
      if (config.url === `${base}/symbol-settings`) return ok(config, { symbol: 'BTCUSDT', leverage: '20', marginMode: 'CROSS' });
      return inner(config);
    };
    Object.assign(userSettings, { orderType: 'market', leverageMode: 'ISOLATED', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    expect(await within(entry).findByTestId('account-leverage')).toHaveTextContent('On the account: 20× cross');
    await waitFor(() => expect(within(entry).getByLabelText('Leverage')).toHaveValue('20'));
    expect(within(entry).getByRole('radio', { name: 'Cross' })).toBeChecked();
    fireEvent.change(within(entry).getByLabelText('Leverage'), { target: { value: '999' } });
    fireEvent.blur(within(entry).getByLabelText('Leverage'));
    expect(await within(entry).findByText('At most 125× on BTCUSDT')).toBeInTheDocument();
    expect(within(entry).getByLabelText('Leverage')).toHaveValue('999'); // not silently 125
    expect(within(entry).getByRole('button', { name: 'Set 999×' })).toBeDisabled();
  });
});
