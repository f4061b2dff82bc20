import { notifications } from '@mantine/notifications';
import type { Alert } from '../../api/contracts/alerts';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import { playAlertSound } from '../../ui/alert-sounds';
import { TOAST_DEFAULT_MS } from '../../ui/toast';
import { formatPrice } from './format';

export const ALERT_TOAST_TITLE = 'Alert triggered';

/** "BTCUSDT on binance reached 65,000 (last 65,012.5) — breakout retest" ("on binance testnet" for a TESTNET alert, as the server words it). */
export function triggeredAlertText(alert: Alert): string {
  const direction = alert.initialPrice < alert.triggerPrice ? 'rose to' : alert.initialPrice > alert.triggerPrice ? 'fell to' : 'reached';
  const last = alert.triggeredPrice !== null ? ` (last ${formatPrice(alert.triggeredPrice)})` : '';
  const note = alert.note ? ` — ${alert.note}` : '';
  const where = `${EXCHANGE_DISPLAY_NAMES[alert.exchange]}${alert.network === 'TESTNET' ? ' testnet' : ''}`;
  return `${alert.symbol} on ${where} ${direction} ${formatPrice(alert.triggerPrice)}${last}${note}`;
}

/** A system notification, when the user allowed them; the tag keeps one per alert. */
export function showBrowserNotification(alert: Alert): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const notification = new Notification(`${ALERT_TOAST_TITLE}: ${alert.symbol}`, { body: triggeredAlertText(alert), tag: `alert-${alert.id}` });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch (error) {
    // Some browsers (Android Chrome) allow notifications only from a service worker.
    console.warn('Could not show a browser notification', error);
  }
}

/** What the user gets when this tab fired an alert: the chosen sound, a toast, a browser notification. */
export function notifyAlertTriggered(alert: Alert, sound: string): void {
  void playAlertSound(sound);
  notifications.show({
    title: ALERT_TOAST_TITLE,
    message: triggeredAlertText(alert),
    color: 'yellow',
    autoClose: TOAST_DEFAULT_MS,
    withCloseButton: true,
  });
  showBrowserNotification(alert);
}
