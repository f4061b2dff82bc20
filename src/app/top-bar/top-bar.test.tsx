import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ADMIN, TEST_USER, installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { setExchange, userSettings } from '../../state/user-settings';
import { routes } from '../routes';
import { renderApp } from '../testing/render-app';

let api: ReturnType<typeof installFakeApi>;
afterEach(() => {
  api.restore();
  setExchange('binance');
});

const header = async () => within(await screen.findByRole('banner'));

describe('top bar (SPEC §2)', () => {
  it('signed out: product, bug link, simulated-market badge; Log in link except on /login', async () => {
    api = installFakeApi();
    const view = await renderApp(routes, '/register');
    await screen.findByRole('heading', { name: 'Register' });
    expect((await header()).getByText('Crypto Terminal')).toBeInTheDocument();
    expect((await header()).getByRole('link', { name: 'Report a Bug?' })).toHaveAttribute('target', '_blank');
    expect((await header()).getByText('Simulated market')).toBeInTheDocument();
    expect((await header()).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect((await header()).queryByRole('link', { name: 'Help' })).not.toBeInTheDocument();
    view.unmount();
    await renderApp(routes, '/login');
    await screen.findByRole('heading', { name: 'Log in' });
    expect((await header()).queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('signed in: community and help links, and a user menu with the email, Settings and Log out', async () => {
    api = installFakeApi();
    signInForTest();
    await renderApp(routes, '/settings/account');
    const user = userEvent.setup();
    const menu = await (await header()).findByRole('button', { name: 'User menu' });
    expect(menu).toHaveTextContent(TEST_USER.email);
    expect((await header()).getByRole('link', { name: 'Community' })).toHaveAttribute('target', '_blank');
    expect((await header()).getByRole('link', { name: 'Help' })).toHaveAttribute('target', '_blank');
    await user.click(menu);
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Admin panel' })).not.toBeInTheDocument();
  });

  it('shows Admin panel to admins and logs out to /login, telling the server', async () => {
    api = installFakeApi({
      'GET /v1/users/me': () => ({ status: 200, data: TEST_ADMIN }),
      'POST /v1/auth/signout': () => ({ status: 200, data: { message: 'Signed out' } }),
    });
    signInForTest();
    const { router } = await renderApp(routes, '/settings/account');
    const user = userEvent.setup();
    await user.click(await (await header()).findByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Admin panel' })).toHaveAttribute('href', '/admin-panel');
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const signout = api.calls.find((c) => c.url === '/v1/auth/signout');
    expect(signout?.headers.Authorization).toBe('Bearer test-access');
    expect(signout?.body).toEqual({ refreshToken: 'test-refresh' });
    expect(localStorage.getItem('crypto_terminal')).toBeNull();
  });

  it('offers only enabled exchanges with their display names, and stores the choice', async () => {
    api = installFakeApi({ 'GET /v1/feature-flags/json': () => ({ status: 200, data: { FF_ENABLE_BITMEX: true, FF_ENABLE_OKX: true } }) });
    signInForTest();
    await renderApp(routes, '/settings/account');
    const user = userEvent.setup();
    await user.click(await (await header()).findByRole('combobox', { name: 'Exchange' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['binance', 'BitMEX', 'okx']);
    await user.click(screen.getByRole('option', { name: 'BitMEX' }));
    expect(userSettings.exchangeName).toBe('bitmex');
    expect(userSettings.tradingPair).toBe('XBTUSD');
  });

  it('moves off an exchange whose flag is off', async () => {
    api = installFakeApi();
    setExchange('bybit');
    signInForTest();
    await renderApp(routes, '/settings/account');
    await waitFor(() => expect(userSettings.exchangeName).toBe('binance'));
  });

  it('shows the maintenance banner while FF_MAINTENANCE_BANNER is on and a message is set', async () => {
    api = installFakeApi({ 'GET /v1/maintenance': () => ({ status: 200, data: { message: 'Exchange upgrade at 02:00 UTC' } }) });
    const on = await renderApp(routes, '/login');
    expect(await screen.findByRole('alert', { name: 'Maintenance' })).toHaveTextContent('Exchange upgrade at 02:00 UTC');
    on.unmount();
    api.route('GET /v1/feature-flags/json', () => ({ status: 200, data: { FF_MAINTENANCE_BANNER: false } }));
    await renderApp(routes, '/login');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(screen.queryByRole('alert', { name: 'Maintenance' })).not.toBeInTheDocument();
  });
});
