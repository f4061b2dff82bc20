import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient } from '../api/client';
import { TEST_USER, installFakeApi, signInForTest } from '../api/testing/fake-api';
import { routes } from './routes';
import { renderApp } from './testing/render-app';

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

const tokens = { accessToken: 'new-access', refreshToken: 'new-refresh' };
const posts = (url: string) => api.calls.filter((c) => c.method !== 'GET' && c.url === url);

describe('login form', () => {
  it('validates with the contract schema before sending anything', async () => {
    api = installFakeApi();
    await renderApp(routes, '/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(posts('/v1/auth/signin')).toHaveLength(0);
  });

  it('signs in with a lower-cased email, stores the tokens and leaves for /trade', async () => {
    api = installFakeApi({ 'POST /v1/auth/signin': () => ({ status: 200, data: tokens }) });
    const { router } = await renderApp(routes, '/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'Trader@Example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade'));
    expect(posts('/v1/auth/signin')[0].body).toEqual({ email: 'trader@example.com', password: 'secret-password' });
    expect(posts('/v1/auth/signin')[0].headers['X-XSRF-TOKEN']).toBeUndefined(); // no cookie in this test
    expect(apiClient.getAccessToken()).toBe('new-access');
    expect(localStorage.getItem('crypto_terminal')).toBe('new-refresh');
  });

  it('disables submit while pending, then toasts the server message and keeps what was typed', async () => {
    let answer: (r: { status: number; data: unknown }) => void = () => {};
    api = installFakeApi({ 'POST /v1/auth/signin': () => new Promise((r) => (answer = r)) });
    await renderApp(routes, '/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'trader@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled());
    answer({ status: 401, data: { message: 'Invalid email or password' } });
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled());
    expect(screen.getByLabelText('Email')).toHaveValue('trader@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('wrong-password');
    expect(apiClient.getAccessToken()).toBeNull();
  });

  it("puts the server's field errors under the fields", async () => {
    api = installFakeApi({
      'POST /v1/auth/signin': () => ({ status: 400, data: { message: 'Invalid email: blocked domain', fields: { email: 'This domain is blocked' } } }),
    });
    await renderApp(routes, '/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'trader@blocked.example');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('This domain is blocked')).toBeInTheDocument();
    expect(screen.getByText('Invalid email: blocked domain')).toBeInTheDocument();
  });

  it('links to forgot-password only while FF_ENABLE_FORGOT_PASSWORD is on', async () => {
    api = installFakeApi();
    const off = await renderApp(routes, '/login');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    off.unmount();
    api.route('GET /v1/feature-flags/json', () => ({ status: 200, data: { FF_ENABLE_FORGOT_PASSWORD: true } }));
    await renderApp(routes, '/login');
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });
});

describe('register form', () => {
  it('passes ?invite= and ?ref= to sign-up and requires the invitation while registration is closed', async () => {
    api = installFakeApi({ 'POST /v1/auth/signup': () => ({ status: 201, data: tokens }) });
    const { router } = await renderApp(routes, '/register?invite=INV123&ref=REF9');
    const user = userEvent.setup();
    expect(await screen.findByLabelText('Invitation code')).toHaveValue('INV123');
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough-pw');
    await user.type(screen.getByLabelText('Repeat password'), 'long-enough-pw');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade'));
    expect(posts('/v1/auth/signup')[0].body).toEqual({
      email: 'new@example.com',
      password: 'long-enough-pw',
      inviteCode: 'INV123',
      referralCode: 'REF9',
    });
  });

  it('refuses mismatched passwords and a missing invitation while registration is closed', async () => {
    api = installFakeApi();
    await renderApp(routes, '/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough-pw');
    await user.type(screen.getByLabelText('Repeat password'), 'different-pw');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration is by invitation only: enter your invitation code')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Invitation code'), 'INV1');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(posts('/v1/auth/signup')).toHaveLength(0);
  });

  it('hides the invitation field while registration is open', async () => {
    api = installFakeApi({ 'GET /v1/feature-flags/json': () => ({ status: 200, data: { FF_ENABLE_REGISTRATION: true } }) });
    await renderApp(routes, '/register');
    await screen.findByRole('heading', { name: 'Register' });
    expect(screen.queryByLabelText('Invitation code')).not.toBeInTheDocument();
  });
});

describe('account page: change password', () => {
  it('sends PATCH /v1/users/{id} with only the password and confirms', async () => {
    api = installFakeApi({ [`PATCH /v1/users/${TEST_USER.id}`]: () => ({ status: 200, data: TEST_USER }) });
    signInForTest();
    await renderApp(routes, '/settings');
    const user = userEvent.setup();
    expect(await screen.findByTestId('account-email')).toHaveTextContent(TEST_USER.email);
    await user.type(screen.getByLabelText('New password'), 'a-new-password');
    await user.type(screen.getByLabelText('Repeat new password'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    const patch = api.calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({ password: 'a-new-password' });
    expect(patch?.headers.Authorization).toBe('Bearer test-access');
    expect(screen.getByLabelText('New password')).toHaveValue('');
  });

  it("toasts 'Unable to change password' when the failure carries no message, keeping the input", async () => {
    api = installFakeApi({ [`PATCH /v1/users/${TEST_USER.id}`]: () => Promise.reject(new Error('')) });
    signInForTest();
    await renderApp(routes, '/settings/account');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'a-new-password');
    await user.type(screen.getByLabelText('Repeat new password'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Unable to change password')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue('a-new-password');
  });
});
