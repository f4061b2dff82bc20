import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, within } from '@testing-library/react';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import type { TabNode } from 'flexlayout-react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { apiClient, http } from '../../api/client';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { Balance, Order, Position } from '../../api/contracts/trading';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';

// The trading panels' unit tests: a fake of the server's trading API (one Binance key, two pairs) and a render
// of one panel inside the providers the workstation gives it. Used by trading-panels.test.tsx and
// order-entry-panel.test.tsx.

export const KEY: ApiKey = {
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
export const balance: Balance = { currency: 'USDT', total: '10012.5', available: '9000', unrealisedPnl: '12.5', marginUsed: '1000', assets: [] };
/** What exchange-info states for a USDT-margined pair (the terms the tests' settings also hold). */
export const linearInstrument = (symbol: string) => ({ symbol, exchangeSymbol: symbol, base: symbol.replace(/USDT$/, ''), quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '100', contractValue: '1', precision: 1, quantityPrecision: 3 });

export const position = (symbol: string): Position => ({ exchange: 'binance', symbol, side: 'BUY', size: '0.01', baseQty: '0.01', notional: '650', entryPrice: '65000', markPrice: '66250', liquidationPrice: null, breakEvenPrice: '65050', unrealisedPnl: '12.5', realisedPnl: '0', leverage: '10', marginMode: 'CROSS', margin: '65', category: 'linear' });
export const order = (id: string, symbol: string): Order => ({ id, clientOrderId: null, exchange: 'binance', symbol, side: 'BUY', type: 'LIMIT', status: 'NEW', qty: '0.01', filledQty: '0', price: '60000', triggerPrice: null, avgFillPrice: null, reduceOnly: false, postOnly: false, timeInForce: 'GTC', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), bracketId: null, role: null });

/** What the fake API saw and answers with; reset before each test. */
export const fake = { calls: [] as string[], posted: [] as unknown[], custody: false, managedList: [] as unknown[], flags: {} as Record<string, boolean> };
const originalAdapter = http.defaults.adapter;
export const ok = (config: InternalAxiosRequestConfig, data: unknown) => ({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = async (config) => {
  fake.calls.push(`${config.method} ${config.url} ${String(config.headers?.['X-Key-Password'] ?? '')}`);
  const base = `/v1/trade/${KEY.id}`;
  if (config.url === '/v1/api-keys') return ok(config, [{ ...KEY, serverCustody: fake.custody }]);
  if (config.url === `/v1/api-keys/${KEY.id}/unlock`) {
    if (config.headers?.['X-Key-Password'] !== 'wrong-pass-1') return { data: null, status: 204, statusText: 'No Content', headers: {}, config };
    const response = { data: { message: 'Wrong key password', fields: { keyPassword: 'Wrong key password' } }, status: 403, statusText: 'Forbidden', headers: {}, config };
    throw new AxiosError('Request failed with status code 403', 'ERR_BAD_REQUEST', config, null, response);
  }
  if (config.url === `/v1/api-keys/${KEY.id}/server-custody`) {
    fake.custody = config.method === 'put';
    return ok(config, { ...KEY, serverCustody: fake.custody });
  }
  if (config.url === `${base}/managed`) return ok(config, fake.managedList);
  if (config.url === `${base}/brackets` && config.method === 'post') {
    fake.posted.push(JSON.parse(String(config.data)));
    return ok(config, { bracketId: 'BKaaaaaaaaaaaaaaaaaa', orders: [], managed: true });
  }
  if (config.url?.startsWith('/v1/feature-flags')) return ok(config, fake.flags);
  if (config.url === '/v1/users/settings') return ok(config, { riskOptions: [0.5, 1], stopLossOptions: [1, 2] });
  if (config.url === `/v1/trade/${KEY.id}/ladders` && config.method === 'post') {
    fake.posted.push(JSON.parse(String(config.data)));
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

export const node = {} as TabNode;
export function renderPanel(Panel: ComponentType<PanelProps>) {
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

/** Before each test: the fake API, signed in, the settings of a Binance key with its password. */
export function resetFakeApi() {
  fake.calls = [];
  fake.posted = [];
  fake.flags = {};
  fake.custody = false;
  fake.managedList = [];
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
  Object.assign(userSettings, defaultUserSettings(), { exchangeName: 'binance', tradingPair: 'BTCUSDT', apiKeyId: KEY.id, apiKeyPasswords: { [KEY.id]: 'key-pass-1' } });
}

/** After each test: the real adapter back, signed out. */
export function restoreApi() {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
}

/** Fills the bracket form: limit entry 60000, stop 59000, size 0.01, one target 62000. */
export function fillBracket(entry: HTMLElement) {
  fireEvent.click(within(entry).getByText('Limit entry'));
  fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
  fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59000' } });
  fireEvent.click(within(entry).getByText('Size'));
  fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
  fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '62000' } });
}
