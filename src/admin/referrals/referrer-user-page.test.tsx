import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReferralMonthlyRecord } from '../../api/contracts/referrals';
import { TEST_ADMIN, installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { renderRoutes } from '../../ui/testing/render-routes';
import { adminPanelRoutes } from '../admin-routes';

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

const ROUTES = [{ path: '/admin-panel', children: adminPanelRoutes }];
const REFERRER = '22222222-2222-4222-8222-222222222222';
const RECORDS: ReferralMonthlyRecord[] = [
  {
    date: '2026-02-01T00:00:00.000Z',
    exchange: { name: 'BITMEX' },
    totalExchangeVolume: '1234567',
    totalExchangeIncome: '4321.5',
    totalReferrerVolume: '250000',
    totalReferrerIncome: '1000',
  },
  { date: '2026-01-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '0', totalExchangeIncome: '0', totalReferrerVolume: '10', totalReferrerIncome: '0' },
];

const now = new Date();
const currentMonthIso = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

function setup(records: ReferralMonthlyRecord[] = RECORDS) {
  api = installFakeApi({
    'GET /v1/users/me': () => ({ status: 200, data: TEST_ADMIN }),
    'GET /v1/referrals/volume': () => ({ status: 200, data: records }),
    'PATCH /v1/referrals/user': () => ({ status: 200, data: { message: 'Income saved for you' } }),
  });
  signInForTest();
}

const volumeCalls = () => api.calls.filter((c) => c.method === 'GET' && c.url === '/v1/referrals/volume').length;

describe('referrer user page (SPEC §2)', () => {
  it('shows the title with the user id, the defaults in the query string and SPEC formats', async () => {
    setup();
    const { router } = await renderRoutes(ROUTES, `/admin-panel/referrals/user/${REFERRER}`);
    expect(await screen.findByRole('heading', { name: `Referrer Volume & Income Overview ${REFERRER}` })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(`?exchange=BITMEX&userId=${REFERRER}&network=MAINNET&currency=USD`));
    const row = (await screen.findByText('02/26')).closest('tr') as HTMLElement;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['02/26', 'BITMEX', '$1,234,567', '$4,321.50', '$250,000', '$1,000.00', 'Submit income']);
    await waitFor(() => expect(document.title).toBe('Referrer Volume & Income Overview · Crypto Terminal'));
  });

  it('shows amounts past what a float holds exactly and sorts them by value', async () => {
    setup([
      { date: '2026-03-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '9', totalExchangeIncome: '0', totalReferrerVolume: '0.1', totalReferrerIncome: '12345678901234.123456789012' },
      { date: '2026-02-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '12345678901234567890.125', totalExchangeIncome: '0.3', totalReferrerVolume: '0.2', totalReferrerIncome: '0' },
      { date: '2026-01-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '10', totalExchangeIncome: '0', totalReferrerVolume: '0', totalReferrerIncome: '0' },
    ]);
    const user = userEvent.setup();
    await renderRoutes(ROUTES, `/admin-panel/referrals/user/${REFERRER}`);
    const cells = async (month: string) => [...((await screen.findByText(month)).closest('tr') as HTMLElement).querySelectorAll('td')].map((td) => td.textContent);
    expect(await cells('03/26')).toEqual(['03/26', 'BITMEX', '$9', '$0.00', '$0.1', '$12,345,678,901,234.12', 'Submit income']);
    expect(await cells('02/26')).toEqual(['02/26', 'BITMEX', '$12,345,678,901,234,567,890.12', '$0.30', '$0.2', '$0.00', 'Submit income']);
    // By value, not as text ("9" after "10"), and past a float's digits.
    await user.click(screen.getByText('Exchange Volume'));
    const months = () => screen.getAllByRole('row').slice(1).map((r) => r.querySelector('td')?.textContent);
    await waitFor(() => expect(months()).toEqual(['02/26', '01/26', '03/26']));
    await user.click(screen.getByText('Exchange Volume'));
    await waitFor(() => expect(months()).toEqual(['03/26', '01/26', '02/26']));
  });

  it("says 'There are no records to display.' when there are none", async () => {
    setup([]);
    await renderRoutes(ROUTES, `/admin-panel/referrals/user/${REFERRER}`);
    expect(await screen.findByText('There are no records to display.')).toBeInTheDocument();
  });

  it('validates, sends SPEC §3 payload, toasts the server message, closes and refetches; the form resets on open', async () => {
    setup();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, `/admin-panel/referrals/user/${REFERRER}?exchange=BITMEX&network=TESTNET&currency=XBT`);
    const row = (await screen.findByText('02/26')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Submit income' }));
    const dialog = await screen.findByRole('dialog', { name: 'Referrer monthly income' });
    expect(within(dialog).getByTestId('income-recommended')).toHaveTextContent('20.25%');
    expect(within(dialog).getByTestId('income-referrer-volume')).toHaveTextContent('XBT 250,000');

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Please enter income')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Income' }), '1234.5');
    const before = volumeCalls();
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    const patch = api.calls.find((c) => c.method === 'PATCH');
    // The typed amount as a decimal string (issue 22), never a float.
    expect(patch?.body).toEqual({ exchange: 'BITMEX', type: 'user', userId: REFERRER, date: currentMonthIso, income: '1234.5' });
    expect(await screen.findByText('Income saved for you')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Referrer monthly income' })).not.toBeInTheDocument());
    await waitFor(() => expect(volumeCalls()).toBeGreaterThan(before));

    await user.click(within(row).getByRole('button', { name: 'Submit income' }));
    const reopened = await screen.findByRole('dialog', { name: 'Referrer monthly income' });
    expect(within(reopened).getByRole('textbox', { name: 'Income' })).toHaveValue('');
  });

  it("requires a date ('Please enter date')", async () => {
    setup();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, `/admin-panel/referrals/user/${REFERRER}`);
    const row = (await screen.findByText('01/26')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Submit income' }));
    const dialog = await screen.findByRole('dialog', { name: 'Referrer monthly income' });
    expect(within(dialog).getByTestId('income-recommended')).toHaveTextContent('n/a');
    // The month picker's clear button empties the date.
    await user.click(within(dialog).getByRole('button', { name: 'Clear date' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Income' }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Please enter date')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });
});
