import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { featureFlagMapQueryKey } from '../api/feature-flags/get-feature-flag-map';
import { TEST_ADMIN, TEST_USER, installFakeApi, signInForTest } from '../api/testing/fake-api';
import { RoleGuard } from './guards/role-guard';
import { routes } from './routes';
import { renderApp } from './testing/render-app';

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

const pending = () => new Promise<never>(() => {});

describe('routes and guards (SPEC §2)', () => {
  it('sends a signed-out visitor of a signed-in page to /login', async () => {
    api = installFakeApi();
    const { router } = await renderApp(routes, '/settings/account');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends the root to /login when signed out', async () => {
    api = installFakeApi();
    const { router } = await renderApp(routes, '/');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the not-found screen with a link to the main page for unknown paths', async () => {
    api = installFakeApi();
    await renderApp(routes, '/no/such/page');
    expect(await screen.findByText('Uh-oh... Page not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Main page' })).toHaveAttribute('href', '/');
  });

  it("shows 'Loading data' until the flag map arrives", async () => {
    let release: (v: { status: number; data: unknown }) => void = () => {};
    api = installFakeApi({ 'GET /v1/feature-flags/json': () => new Promise((r) => (release = r)) });
    await renderApp(routes, '/login');
    expect(await screen.findByText('Loading data')).toBeInTheDocument();
    release({ status: 200, data: {} });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
  });

  it('blocks the app when the flag map cannot be loaded, and toasts why', async () => {
    api = installFakeApi({ 'GET /v1/feature-flags/json': () => ({ status: 500, data: { message: 'Database unavailable' } }) });
    await renderApp(routes, '/login', (client) => client.setQueryDefaults(featureFlagMapQueryKey, { retry: false }));
    expect(await screen.findByText('Unable to load settings, please try refreshing the page.')).toBeInTheDocument();
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it("shows 'Loading user data' while the signed-in user loads", async () => {
    api = installFakeApi({ 'GET /v1/users/me': pending });
    signInForTest();
    await renderApp(routes, '/trade');
    expect(await screen.findByText('Loading user data')).toBeInTheDocument();
  });

  it('sends a signed-in user away from the auth pages to /trade', async () => {
    api = installFakeApi();
    signInForTest();
    const { router } = await renderApp(routes, '/register?ref=ABC');
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade'));
    expect(screen.queryByRole('heading', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('sends a signed-in visitor of the root to /trade', async () => {
    api = installFakeApi();
    signInForTest();
    const { router } = await renderApp(routes, '/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade'));
  });

  it('hides the admin panel from users (not found) and opens it for admins at users', async () => {
    api = installFakeApi();
    signInForTest();
    const user = await renderApp(routes, '/admin-panel');
    expect(await screen.findByText('Uh-oh... Page not found.')).toBeInTheDocument();
    user.unmount();

    api.route('GET /v1/users/me', () => ({ status: 200, data: TEST_ADMIN }));
    const admin = await renderApp(routes, '/admin-panel');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(admin.router.state.location.pathname).toBe('/admin-panel/users');
  });

  it('routes a funded user’s API key to its edit page, which asks the server for that user and key', async () => {
    api = installFakeApi({ 'GET /v1/users/me': () => ({ status: 200, data: TEST_ADMIN }) });
    signInForTest();
    await renderApp(routes, '/admin-panel/users-funded/api-keys-settings/u-9/k-3');
    expect(await screen.findByRole('heading', { name: 'Edit API key' })).toBeInTheDocument();
    expect(await screen.findByText('API key not found.')).toBeInTheDocument();
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toContain('GET /v1/users/u-9/api-keys/k-3');
  });

  it('signs out and goes to /login when the session names no user', async () => {
    api = installFakeApi({ 'GET /v1/users/me': () => ({ status: 404, data: { message: 'User not found' } }) });
    signInForTest();
    const { router } = await renderApp(routes, '/trade');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('crypto_terminal')).toBeNull();
  });

  it('sets tab titles as {page} · {product}', async () => {
    api = installFakeApi();
    await renderApp(routes, '/login');
    await waitFor(() => expect(document.title).toBe('Log in · Crypto Terminal'));
  });
});

describe('RoleGuard', () => {
  const renderGuard = (props: Partial<Parameters<typeof RoleGuard>[0]> = {}) =>
    renderApp(
      [{ path: '/', element: <RoleGuard roles={['admin', 'referrer']} {...props}>secret content</RoleGuard> }],
      '/',
    );

  it('shows content to listed roles and the not-found screen to others', async () => {
    api = installFakeApi({ 'GET /v1/users/me': () => ({ status: 200, data: { ...TEST_USER, role: 'referrer' } }) });
    signInForTest();
    const view = await renderGuard();
    expect(await screen.findByText('secret content')).toBeInTheDocument();
    view.unmount();
    api.route('GET /v1/users/me', () => ({ status: 200, data: TEST_USER }));
    await renderGuard();
    expect(await screen.findByText('Uh-oh... Page not found.')).toBeInTheDocument();
  });

  it('shows content to everyone when enabled, and the fallback instead of not-found', async () => {
    api = installFakeApi();
    signInForTest();
    const view = await renderGuard({ enabled: true });
    expect(await screen.findByText('secret content')).toBeInTheDocument();
    view.unmount();
    await renderGuard({ fallback: <p>ask an admin</p> });
    expect(await screen.findByText('ask an admin')).toBeInTheDocument();
  });

  it('asks for a refresh when the user cannot be fetched', async () => {
    api = installFakeApi({ 'GET /v1/users/me': () => ({ status: 403, data: { message: 'Account disabled' } }) });
    signInForTest();
    await renderGuard();
    expect(await screen.findByText('Something went wrong, try refreshing the page.')).toBeInTheDocument();
  });
});
