import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS } from '../../api/contracts/feature-flags';
import { installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { renderRoutes } from '../../ui/testing/render-routes';
import { PreferencesPage } from '../settings-routes';
import { defaultUserSettings, updateUserSettings, userSettings } from '../../state/user-settings';

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
