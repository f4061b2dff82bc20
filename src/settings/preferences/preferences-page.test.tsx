import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS } from '../../api/contracts/feature-flags';
import { SERVER_SETTINGS_DEFAULTS, type ServerSettings } from '../../api/contracts/settings';
import { installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { renderRoutes } from '../../ui/testing/render-routes';
import { PreferencesPage } from '../settings-routes';
import { defaultUserSettings, updateUserSettings, userSettings } from '../../state/user-settings';
import { hotkeys, resetHotkeys } from '../../state/hotkeys';

const simEndpoints = (id: string) => ({ rest: `/sim/${id}`, restTestnet: `/sim/${id}`, ws: `/sim/${id}`, wsTestnet: `/sim/${id}` });
const SIM = { binance: simEndpoints('binance'), bitmex: simEndpoints('bitmex'), bybit: simEndpoints('bybit'), okx: simEndpoints('okx') };
const ROUTES = [{ path: '/settings/preferences', element: <PreferencesPage /> }];
let api: ReturnType<typeof installFakeApi>;
beforeEach(() => updateUserSettings(defaultUserSettings()));
afterEach(() => api.restore());

describe('settings/preferences', () => {
  it('writes each setting to the store and keeps an invalid max risk out of it', async () => {
    api = installFakeApi();
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    await screen.findByRole('heading', { name: 'Preferences' });
    await waitFor(() => expect(document.title).toBe('Preferences · Crypto Terminal'));

    await user.click(screen.getByRole('switch', { name: /^Mask balance/ }));
    expect(userSettings.maskBalance).toBe(true);
    await user.click(screen.getByRole('switch', { name: 'Cancel order' }));
    expect(userSettings.confirmCancelOrder).toBe(false);
    await user.click(screen.getByRole('switch', { name: 'Use testnet' }));
    expect(userSettings.useTestnet).toBe(true);

    const risk = screen.getByRole('textbox', { name: 'Max risk per trade' });
    await user.clear(risk);
    await user.type(risk, '0');
    expect(await screen.findByText('Risk must be above 0 %')).toBeInTheDocument();
    expect(userSettings.maxRisk).toBe(1.5);
    await user.clear(risk);
    await user.type(risk, '2.5');
    await waitFor(() => expect(userSettings.maxRisk).toBe(2.5));
    expect(screen.queryByText('Risk must be above 0 %')).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Alert sound' }));
    await user.click(await screen.findByRole('option', { name: 'Rising sweep (alert-3)' }));
    expect(userSettings.alertSound).toBe('alert-3');
  });

  it('offers ladder orders as the default order type only with FF_LADDER_ORDERS', async () => {
    api = installFakeApi();
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    await user.click(await screen.findByRole('combobox', { name: 'Default order type' }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByRole('option', { name: 'Ladder order' })).not.toBeInTheDocument();
    await user.click(within(listbox).getByRole('option', { name: 'Limit' }));
    expect(userSettings.orderType).toBe('limit');
    cleanup();

    api.route('GET /v1/feature-flags/json', () => ({ status: 200, data: { ...FEATURE_FLAG_DEFAULTS, FF_LADDER_ORDERS: true } }));
    await renderRoutes(ROUTES, '/settings/preferences');
    await user.click(await screen.findByRole('combobox', { name: 'Default order type' }));
    expect(await screen.findByRole('option', { name: 'Ladder order' })).toBeInTheDocument();
  });
});

describe('settings/preferences: quick picks', () => {
  const settingsWith = (patch: Partial<ServerSettings>): ServerSettings => ({ ...SERVER_SETTINGS_DEFAULTS, ...patch });

  it('adds and removes risk and stop-loss options on the server, sorted, and refuses bad values', async () => {
    let stored = settingsWith({ riskOptions: [0.5, 2], stopLossOptions: [1] });
    api = installFakeApi({
      'GET /v1/users/settings': () => ({ status: 200, data: stored }),
      'PATCH /v1/users/settings': ({ body }) => {
        stored = { ...stored, ...(body as Partial<ServerSettings>) };
        return { status: 200, data: stored };
      },
    });
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    const risk = await screen.findByRole('group', { name: 'Risk options' });
    expect(await within(risk).findByText('0.5 %')).toBeInTheDocument();
    expect(within(risk).getByText('2 %')).toBeInTheDocument();

    const input = within(risk).getByRole('textbox', { name: 'New risk options value' });
    await user.type(input, '1.25');
    await user.click(within(risk).getByRole('button', { name: 'Add to risk options' }));
    await waitFor(() => expect(stored.riskOptions).toEqual([0.5, 1.25, 2]));
    expect(within(risk).getByText('1.25 %')).toBeInTheDocument();
    await waitFor(() => expect(input).toHaveValue(''));

    await user.type(input, '2{Enter}');
    expect(await within(risk).findByText('2 % is already in the list')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '0');
    await user.click(within(risk).getByRole('button', { name: 'Add to risk options' }));
    expect(await within(risk).findByText('Must be above 0 %')).toBeInTheDocument();
    expect(stored.riskOptions).toEqual([0.5, 1.25, 2]);

    await user.click(within(risk).getByRole('button', { name: 'Remove 0.5 %' }));
    await waitFor(() => expect(stored.riskOptions).toEqual([1.25, 2]));

    const stop = screen.getByRole('group', { name: 'Stop-loss options' });
    await user.type(within(stop).getByRole('textbox', { name: 'New stop-loss options value' }), '0.3{Enter}');
    await waitFor(() => expect(stored.stopLossOptions).toEqual([0.3, 1]));
    expect(stored.riskOptions).toEqual([1.25, 2]);
  });

  it('alert e-mails: a server setting, switchable only when the server sends mail', async () => {
    let stored = settingsWith({});
    api = installFakeApi({
      'GET /v1/users/settings': () => ({ status: 200, data: stored }),
      'PATCH /v1/users/settings': ({ body }) => {
        stored = { ...stored, ...(body as Partial<ServerSettings>) };
        return { status: 200, data: stored };
      },
    });
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    const off = await screen.findByRole('switch', { name: /^E-mail me when an alert fires/ });
    expect(off).toBeDisabled();
    expect(screen.getByText(/This server does not send e-mail/)).toBeInTheDocument();
    cleanup();
    api.route('GET /v1/config', () => ({ status: 200, data: { productName: 'Crypto Terminal', marketData: 'sim', version: 'test', sentryDsn: null, mail: true, custody: true, exchanges: SIM } }));
    await renderRoutes(ROUTES, '/settings/preferences');
    const on = await screen.findByRole('switch', { name: /^E-mail me when an alert fires/ });
    await waitFor(() => expect(on).toBeEnabled());
    expect(on).not.toBeChecked();
    await user.click(on);
    await waitFor(() => expect(stored.alertEmails).toBe(true));
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ alertEmails: true });
    expect(on).toBeChecked();
  });

  it('puts the list back and shows the server message when the server refuses a change', async () => {
    api = installFakeApi({
      'GET /v1/users/settings': () => ({ status: 200, data: settingsWith({ stopLossOptions: [1, 2] }) }),
      'PATCH /v1/users/settings': () => ({ status: 400, data: { message: 'Invalid request: stopLossOptions has too many values' } }),
    });
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    const stop = await screen.findByRole('group', { name: 'Stop-loss options' });
    await within(stop).findByText('2 %');
    await user.click(within(stop).getByRole('button', { name: 'Remove 2 %' }));
    expect(await screen.findByText('Invalid request: stopLossOptions has too many values')).toBeInTheDocument();
    expect(within(stop).getByText('2 %')).toBeInTheDocument();
    expect(within(stop).getByText('1 %')).toBeInTheDocument();

    // A refused addition leaves the typed value in the field to try again.
    const input = within(stop).getByRole('textbox', { name: 'New stop-loss options value' });
    await user.type(input, '4{Enter}');
    await waitFor(() => expect(within(stop).queryByText('4 %')).not.toBeInTheDocument());
    expect(input).toHaveValue('4 %');
  });
});

describe('settings/preferences: hotkeys', () => {
  beforeEach(() => resetHotkeys());

  it('records a new combination, refuses a taken or reserved one with the reason, clears with Backspace, resets', async () => {
    api = installFakeApi();
    signInForTest();
    const user = userEvent.setup();
    await renderRoutes(ROUTES, '/settings/preferences');
    const table = await screen.findByTestId('hotkeys-table');
    const change = within(table).getByRole('button', { name: 'Change the hotkey: Cancel all orders on the pair' });

    await user.click(change);
    expect(change).toHaveTextContent('Press keys…');
    await user.keyboard('{Control>}{Shift>}k{/Shift}{/Control}');
    expect(hotkeys.cancelAll).toBe('Ctrl+Shift+K');
    expect(change).toHaveTextContent('Change');

    await user.click(change);
    await user.keyboard('{Shift>}b{/Shift}');
    expect(await within(table).findByRole('alert')).toHaveTextContent('Shift+B is already “Buy: what Order entry would send (its type, bracket and size)”');
    expect(hotkeys.cancelAll).toBe('Ctrl+Shift+K');
    await user.keyboard('{Alt>}a{/Alt}');
    expect(within(table).getByRole('alert')).toHaveTextContent('Alt+A is reserved: add an alert at the crosshair price');

    await user.keyboard('{Backspace}');
    expect(hotkeys.cancelAll).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(hotkeys.cancelAll).toBe('Shift+C');
  });
});
