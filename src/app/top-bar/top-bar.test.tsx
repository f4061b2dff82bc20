import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../api/contracts/notifications';
import { playAlertSound } from '../../ui/alert-sounds';
import { TEST_ADMIN, TEST_USER, installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { FakeAppSocket } from '../../api/testing/fake-app-socket';
import type { AppStreamSocket } from '../../api/notifications/app-stream';
import { configureAppStream } from '../../api/use-app-stream';
import { setExchange, userSettings } from '../../state/user-settings';
import { routes } from '../routes';
import { renderApp } from '../testing/render-app';

vi.mock('../../ui/alert-sounds', async (original) => ({ ...(await original<typeof import('../../ui/alert-sounds')>()), playAlertSound: vi.fn(async () => undefined) }));

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

  it('the bell: unread count and list; an alert the server fires while the app is open rings once; mark read', async () => {
    const alert = {
      id: '00000000-0000-4000-8000-0000000000aa',
      exchange: 'binance' as const,
      network: 'MAINNET' as const,
      symbol: 'BTCUSDT',
      initialPrice: 60_000,
      triggerPrice: 65_000,
      status: 'triggered' as const,
      triggeredAt: '2026-11-26T10:00:01.000Z',
      triggeredPrice: 65_010,
      note: null,
      drawingId: null,
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
    };
    const old: Notification = { id: '00000000-0000-4000-8000-0000000000b1', kind: 'alert', title: 'Alert triggered: ETHUSDT', body: 'ETHUSDT on binance fell to 3,000', refId: null, alert: null, read: false, createdAt: '2026-11-25T10:00:00.000Z' };
    const fresh: Notification = { ...old, id: '00000000-0000-4000-8000-0000000000b2', title: 'Alert triggered: BTCUSDT', body: 'BTCUSDT on binance rose to 65,000 (last 65,010)', refId: alert.id, alert, createdAt: '2026-11-26T10:00:01.000Z' };
    const now = '2026-11-26T10:00:02.000Z';
    let list = { items: [old], unread: 1, now };
    api = installFakeApi({
      'GET /v1/notifications': () => ({ status: 200, data: list }),
      'POST /v1/notifications/read': () => ({ status: 200, data: { unread: 0 } }),
    });
    signInForTest();
    await renderApp(routes, '/settings/account');
    const bell = await (await header()).findByRole('button', { name: 'Notifications: 1 unread' });
    // What was there when the app opened is old news: listed, not rung.
    await new Promise((r) => setTimeout(r, 100));
    expect(playAlertSound).not.toHaveBeenCalled();

    list = { items: [fresh, old], unread: 2, now };
    await (await header()).findByRole('button', { name: 'Notifications: 2 unread' }, { timeout: 5000 });
    await waitFor(() => expect(playAlertSound).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('BTCUSDT on binance rose to 65,000 (last 65,010)', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(localStorage.getItem(`ct_rang_${fresh.id}`)).not.toBeNull();

    const user = userEvent.setup();
    await user.click(bell);
    const dropdown = within(await screen.findByTestId('notifications-list'));
    expect(dropdown.getAllByTestId('notification-row').map((r) => r.getAttribute('data-read'))).toEqual(['false', 'false']);
    await user.click(dropdown.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(api.calls.some((c) => c.url === '/v1/notifications/read')).toBe(true));
    expect(api.calls.find((c) => c.url === '/v1/notifications/read')?.body).toEqual({});
    list = { items: [{ ...fresh, read: true }, { ...old, read: true }], unread: 0, now };
    await (await header()).findByRole('button', { name: 'Notifications' }, { timeout: 5000 });
    // Seen once, rung once.
    expect(playAlertSound).toHaveBeenCalledTimes(1);
  });

  it('an unread alert that fired seconds before the app opened still rings, once however many times the app opens', async () => {
    vi.mocked(playAlertSound).mockClear();
    const alert = {
      id: '00000000-0000-4000-8000-0000000000ab',
      exchange: 'binance' as const,
      network: 'MAINNET' as const,
      symbol: 'ETHUSDT',
      initialPrice: 3000,
      triggerPrice: 3100,
      status: 'triggered' as const,
      triggeredAt: '2026-11-26T10:00:00.000Z',
      triggeredPrice: 3100.5,
      note: null,
      drawingId: null,
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
    };
    const recent: Notification = { id: '00000000-0000-4000-8000-0000000000c1', kind: 'alert', title: 'Alert triggered: ETHUSDT', body: 'ETHUSDT on binance rose to 3,100', refId: alert.id, alert, read: false, createdAt: '2026-11-26T10:00:00.000Z' };
    api = installFakeApi({ 'GET /v1/notifications': () => ({ status: 200, data: { items: [recent], unread: 1, now: '2026-11-26T10:00:05.000Z' } }) });
    signInForTest();
    const view = await renderApp(routes, '/settings/account');
    await waitFor(() => expect(playAlertSound).toHaveBeenCalledTimes(1));
    view.unmount();
    // Opened again (a reload, another tab): the browser already rang for it.
    await renderApp(routes, '/settings/account');
    await (await header()).findByRole('button', { name: 'Notifications: 1 unread' });
    await new Promise((r) => setTimeout(r, 200));
    expect(playAlertSound).toHaveBeenCalledTimes(1);
  });

  it('an alert pushed on /v1/stream rings at once, once — also when a reconnect’s resume sends it again', async () => {
    vi.mocked(playAlertSound).mockClear();
    FakeAppSocket.all = [];
    const alert = {
      id: '00000000-0000-4000-8000-0000000000ac',
      exchange: 'binance' as const,
      network: 'MAINNET' as const,
      symbol: 'SOLUSDT',
      initialPrice: 150,
      triggerPrice: 160,
      status: 'triggered' as const,
      triggeredAt: new Date().toISOString(),
      triggeredPrice: 160.2,
      note: null,
      drawingId: null,
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
    };
    const pushed: Notification = { id: '00000000-0000-4000-8000-0000000000d1', kind: 'alert', title: 'Alert triggered: SOLUSDT', body: 'SOLUSDT on binance rose to 160 (last 160.2)', refId: alert.id, alert, read: false, createdAt: new Date().toISOString() };
    api = installFakeApi();
    configureAppStream({ WebSocket: FakeAppSocket as unknown as AppStreamSocket, url: 'ws://test/v1/stream' });
    signInForTest();
    await renderApp(routes, '/settings/account');
    await (await header()).findByRole('button', { name: 'Notifications' }, { timeout: 15_000 });
    await waitFor(() => expect(FakeAppSocket.all).toHaveLength(1));
    const first = FakeAppSocket.latest()!;
    const say = (s: FakeAppSocket, m: Parameters<FakeAppSocket['receive']>[0]) => act(async () => s.receive(m));
    await act(async () => first.open());
    await say(first, { type: 'notifications', items: [], unread: 0, now: new Date().toISOString(), resume: true });
    await say(first, { type: 'notifications', items: [pushed], unread: 1, now: new Date().toISOString(), resume: false });
    await (await header()).findByRole('button', { name: 'Notifications: 1 unread' });
    await waitFor(() => expect(playAlertSound).toHaveBeenCalledTimes(1));

    // The socket drops; the next one resumes from the pushed one, and the server sends it again (slack).
    await act(async () => first.drop(1006));
    await waitFor(() => expect(FakeAppSocket.all).toHaveLength(2), { timeout: 5000 });
    const second = FakeAppSocket.latest()!;
    await act(async () => second.open());
    expect(second.sent[0]).toMatchObject({ op: 'auth', since: pushed.id });
    await say(second, { type: 'notifications', items: [pushed], unread: 1, now: new Date().toISOString(), resume: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(playAlertSound).toHaveBeenCalledTimes(1);
  });
});
