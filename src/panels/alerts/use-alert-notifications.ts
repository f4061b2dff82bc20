import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { alertsChanged, putAlertInCache } from '../../api/alerts/alerts-cache';
import type { NotificationList } from '../../api/contracts/notifications';
import { userSettings } from '../../state/user-settings';
import { claimRing } from '../../ui/claim-ring';
import { toastInfo } from '../../ui/toast';
import { notifyAlertTriggered } from './notify-triggered';

/** An unread notification this young when the app opens still rings (it fired while the tab was loading). */
export const RECENT_MS = 30_000;

/**
 * Rings for notifications that arrive while the app is open (issue 13: the server fires alerts, the
 * app no longer decides): for an alert, the cached alert list takes the server's copy at once and
 * one tab plays the chosen sound with the toast and the browser notification, as before; for a
 * job's action, a toast. What the first answer holds is old news and does not ring, unless it is
 * unread and younger than `RECENT_MS`.
 */
export function useAlertNotifications(list: NotificationList | undefined): void {
  const queryClient = useQueryClient();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!list) return;
    if (seen.current === null) {
      // What the first answer holds is old news — except an unread one of the last seconds (it fired
      // while this tab was loading): that one rings, once in the browser (`claimRing`).
      const now = Date.parse(list.now);
      seen.current = new Set(list.items.filter((n) => n.read || now - Date.parse(n.createdAt) > RECENT_MS).map((n) => n.id));
    }
    const known = seen.current;
    const fresh = list.items.filter((n) => !known.has(n.id)).reverse(); // oldest first
    for (const n of fresh) known.add(n.id);
    let alertsMoved = false;
    for (const n of fresh) {
      if (n.kind === 'alert' && n.alert) {
        putAlertInCache(queryClient, n.alert);
        alertsMoved = true;
      }
      if (n.read) continue;
      const alert = n.alert;
      void claimRing(n.id).then((mine) => {
        if (!mine) return;
        // Read at ring time: the sound picked a second ago is the one that plays.
        if (alert) notifyAlertTriggered(alert, userSettings.alertSound);
        else toastInfo(`${n.title}: ${n.body}`);
      });
    }
    if (alertsMoved) void alertsChanged(queryClient);
  }, [list, queryClient]);
}
