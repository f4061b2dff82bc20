import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminTradeAuditEntry, AdminTradeAuditPage, FundedDailyLoss } from '../../api/contracts/funded-users';
import { TEST_ADMIN, installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { renderRoutes } from '../../ui/testing/render-routes';
import { fundedUserAdminRoutes } from './routes';

const USER = '33333333-3333-4333-8333-333333333333';
const KEY = '44444444-4444-4444-8444-444444444444';
const ROUTES = [{ path: '/admin-panel', children: fundedUserAdminRoutes }];

const entry = (over: Partial<AdminTradeAuditEntry>): AdminTradeAuditEntry => ({
  id: '55555555-5555-4555-8555-555555555555',
  at: '2026-06-01T12:00:00.000Z',
  actorId: TEST_ADMIN.id,
  actorEmail: TEST_ADMIN.email,
  apiKeyId: KEY,
  apiKeyName: 'Main',
  method: 'POST',
  route: '/v1/users/:userId/trade/:apiKeyId/orders',
  body: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.010' },
  status: 201,
  result: 'ok',
  ...over,
});
const PAGE_1: AdminTradeAuditPage = {
  data: [
    entry({}),
    entry({ id: '66666666-6666-4666-8666-666666666666', status: 422, result: 'Daily loss limit reached: a loss of $12.00 today against your limit of $10.00.', apiKeyName: null }),
  ],
  meta: { nextCursor: 'next-1', previousCursor: null },
};
const PAGE_2: AdminTradeAuditPage = {
  data: [entry({ id: '77777777-7777-4777-8777-777777777777', method: 'PUT', route: '/v1/users/:userId/trade/:apiKeyId/leverage', body: { symbol: 'BTCUSDT', leverage: 5 }, status: 200 })],
  meta: { nextCursor: null, previousCursor: 'prev-2' },
};
const DAY: FundedDailyLoss = {
  dailyLossLimit: '10',
  dayStart: '2026-06-01T00:00:00.000Z',
  dayEnd: '2026-06-02T00:00:00.000Z',
  keys: [
    { apiKeyId: KEY, name: 'Main', exchange: 'binance', network: 'MAINNET', lossToday: '12', locked: true },
    { apiKeyId: '88888888-8888-4888-8888-888888888888', name: 'Spare', exchange: 'bybit', network: 'TESTNET', lossToday: '0.5', locked: false },
  ],
};

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

function setup(audit: AdminTradeAuditPage[] = [PAGE_1, PAGE_2], day: FundedDailyLoss = DAY) {
  let page = 0;
  api = installFakeApi({
    'GET /v1/users/me': () => ({ status: 200, data: TEST_ADMIN }),
    [`GET /v1/users/${USER}`]: () => ({ status: 200, data: { ...TEST_ADMIN, id: USER, email: 'funded@example.com', role: 'user' } }),
    [`GET /v1/users/${USER}/api-keys`]: () => ({ status: 200, data: [] }),
    [`GET /v1/users/${USER}/trade-audit`]: () => ({ status: 200, data: audit[Math.min(page++, audit.length - 1)] }),
    [`GET /v1/users/${USER}/daily-loss`]: () => ({ status: 200, data: day }),
  });
  signInForTest();
}

describe('funded user keys page: admin trading audit and today’s loss', () => {
  it('lists time, admin, key, request and result; "Load more" reads the next page with the cursor', async () => {
    setup();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, `/admin-panel/users-funded/api-keys-settings/${USER}`);
    const section = await screen.findByTestId('trade-audit-section');
    const table = within(section).getByRole('table', { name: 'Admin trading audit' });
    const first = (await within(table).findAllByText('POST /orders'))[0].closest('tr') as HTMLElement;
    expect(first).toHaveTextContent(TEST_ADMIN.email);
    expect(first).toHaveTextContent('Main');
    expect(first).toHaveTextContent('{"symbol":"BTCUSDT","side":"BUY","type":"MARKET","qty":"0.010"}');
    expect(first).toHaveTextContent('201');
    expect(first).toHaveTextContent('ok');
    const refused = within(table).getByText(/Daily loss limit reached/).closest('tr') as HTMLElement;
    expect(refused).toHaveTextContent('422');
    expect(refused).toHaveTextContent(`Deleted key (${KEY.slice(0, 8)})`);

    await user.click(within(section).getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('PUT /leverage')).toBeInTheDocument();
    const auditCalls = api.calls.filter((c) => c.url === `/v1/users/${USER}/trade-audit`);
    expect(auditCalls).toHaveLength(2);
    await waitFor(() => expect(within(section).getByText('3 shown (all)')).toBeInTheDocument());
  });

  it('shows each key’s loss today against the limit, and which key is locked until 00:00 UTC', async () => {
    setup();
    await renderRoutes(ROUTES, `/admin-panel/users-funded/api-keys-settings/${USER}`);
    const day = await screen.findByTestId('daily-loss');
    expect(day).toHaveTextContent('Daily loss limit $10.00');
    const main = within(day).getByText('Main').closest('tr') as HTMLElement;
    expect(main).toHaveTextContent('$12.00 of $10.00');
    expect(main).toHaveTextContent('Locked until 00:00 UTC');
    const spare = within(day).getByText('Spare').closest('tr') as HTMLElement;
    expect(spare).toHaveTextContent('$0.50 of $10.00');
    expect(spare).toHaveTextContent('Open');
    // Read only: nothing here lifts a lock.
    expect(within(day).queryByRole('button')).toBeNull();
  });

  it('says when nobody traded for the user and when no limit is set', async () => {
    setup([{ data: [], meta: { nextCursor: null, previousCursor: null } }], { ...DAY, dailyLossLimit: null, keys: [] });
    await renderRoutes(ROUTES, `/admin-panel/users-funded/api-keys-settings/${USER}`);
    expect(await screen.findByText('No admin has traded on this user’s keys')).toBeInTheDocument();
    expect(await screen.findByText('No daily loss limit is set.')).toBeInTheDocument();
  });
});
