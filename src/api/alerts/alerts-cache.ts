import type { QueryClient } from '@tanstack/react-query';
import type { Alert } from '../contracts/alerts';
import { alertListQueryKey, alertsQueryKey } from './list-alerts';

/**
 * Keeping the one cached alert list right after a change, and telling the other tabs of this
 * browser (they refetch). Tabs are told over a BroadcastChannel rather than polling, so an alert
 * created, moved or triggered in one tab shows in the others at once.
 */

export const ALERTS_CHANNEL = 'crypto_terminal_alerts';

/** Active ones oldest first, then triggered newest first: the server's order, kept after local edits. */
export function sortAlerts(list: readonly Alert[]): Alert[] {
  const active = list.filter((a) => a.status === 'active').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const triggered = list.filter((a) => a.status === 'triggered').sort((a, b) => (b.triggeredAt ?? '').localeCompare(a.triggeredAt ?? ''));
  return [...active, ...triggered];
}

/** Puts the server's copy of one alert into the cached list (adding it when new). */
export function putAlertInCache(queryClient: QueryClient, alert: Alert): void {
  queryClient.setQueryData<Alert[]>(alertListQueryKey, (list) => {
    if (!list) return list;
    const others = list.filter((a) => a.id !== alert.id);
    return sortAlerts([...others, alert]);
  });
}

export function removeAlertsFromCache(queryClient: QueryClient, keep: (alert: Alert) => boolean): void {
  queryClient.setQueryData<Alert[]>(alertListQueryKey, (list) => list?.filter(keep));
}

/** After any change: refetch here (the server has the last word) and in the other tabs. */
export function alertsChanged(queryClient: QueryClient): Promise<void> {
  announceAlertsChanged();
  return queryClient.invalidateQueries({ queryKey: alertsQueryKey });
}

// One channel object per tab, used to send and to listen: a BroadcastChannel does not receive its own
// messages, so this tab is not told twice about its own change.
let channel: BroadcastChannel | null | undefined;
function tabChannel(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(ALERTS_CHANNEL);
  return channel;
}

export function announceAlertsChanged(): void {
  tabChannel()?.postMessage('changed');
}

/** Refetches the alert list whenever another tab changes an alert. Returns the stop function. */
export function listenForAlertChanges(queryClient: QueryClient): () => void {
  const ch = tabChannel();
  if (!ch) return () => undefined;
  const onMessage = () => void queryClient.invalidateQueries({ queryKey: alertsQueryKey });
  ch.addEventListener('message', onMessage);
  return () => ch.removeEventListener('message', onMessage);
}
