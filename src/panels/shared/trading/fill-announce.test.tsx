import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fill } from '../../../api/contracts/trading';

const played = vi.fn(async (_sound: string) => true);
const toasts: string[] = [];
vi.mock('../../../ui/alert-sounds', () => ({ playAlertSound: (sound: string) => played(sound) }));
vi.mock('../../../ui/toast', () => ({ toastInfo: (m: string) => toasts.push(m) }));

const { applyStreamMessage, fillText } = await import('./account-store');
const { userSettings } = await import('../../../state/user-settings');

const fill: Fill = { id: 'f-1', orderId: 'o-1', symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', price: '65000.50', fee: '0.26', feeCurrency: 'USDT', realisedPnl: '0', time: '2026-01-01T00:00:00.000Z', liquidation: false };

describe('a fill from the account stream (issue 22)', () => {
  beforeEach(() => {
    localStorage.clear();
    played.mockClear();
    toasts.length = 0;
    userSettings.alertSound = 'alert-2';
  });

  it('rings the user\'s sound and toasts once, however many panels, tabs or replays deliver it', async () => {
    const client = new QueryClient();
    applyStreamMessage(client, 'key-1', { type: 'fill', apiKeyId: 'key-1', fill });
    applyStreamMessage(client, 'key-1', { type: 'fill', apiKeyId: 'key-1', fill });
    await vi.waitFor(() => expect(toasts).toEqual(['Filled: bought 0.01 BTCUSDT at 65000.5']));
    await new Promise((r) => setTimeout(r, 20));
    expect(toasts).toHaveLength(1);
    expect(played).toHaveBeenCalledTimes(1);
    expect(played).toHaveBeenCalledWith('alert-2');
    // Another fill is another ring.
    applyStreamMessage(client, 'key-1', { type: 'fill', apiKeyId: 'key-1', fill: { ...fill, id: 'f-2', side: 'SELL', liquidation: true } });
    await vi.waitFor(() => expect(toasts).toHaveLength(2));
    expect(toasts[1]).toBe('Filled: sold 0.01 BTCUSDT at 65000.5 (liquidation)');
  });

  it('says side, size, symbol and price', () => {
    expect(fillText(fill)).toBe('Filled: bought 0.01 BTCUSDT at 65000.5');
  });
});
