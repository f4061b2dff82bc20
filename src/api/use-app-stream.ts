import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { AppStreamServerMessage, NotificationList } from './contracts/notifications';
import { openAppStream, type AppStreamOptions } from './notifications/app-stream';
import { notificationsQueryKey, resumePoint, withPushed, withRead } from './notifications/notifications-cache';
import { getServerSettings, serverSettingsQueryKey } from './settings/get-server-settings';
import { alertListQueryKey } from './alerts/alert-keys';
import { maintenanceQueryKey } from './maintenance/maintenance-keys';
import { refreshManaged } from './trade/managed-keys';
import { receiveServerSettings } from './settings/update-server-settings';
import { useAccessToken } from './use-access-token';

/**
 * How the app opens `/v1/stream`: the browser's WebSocket unless set. Tests set a fake socket, or
 * `null` for no stream at all (the app then polls, as it does while the stream is down).
 */
let streamOptions: Pick<AppStreamOptions, 'WebSocket' | 'url' | 'random' | 'idleMs' | 'getAccessToken' | 'refreshTokens'> | null = {};
export function configureAppStream(options: typeof streamOptions): void {
  streamOptions = options;
}

/** What arrives on the stream, into react-query: the bell's list (it rings from there) and the settings. */
function apply(queryClient: QueryClient, m: AppStreamServerMessage): void {
  if (m.type === 'notifications') {
    queryClient.setQueryData<NotificationList>(notificationsQueryKey, (list) => withPushed(list, m));
    // A fired alert moved from active to triggered: the alerts list is read again (it is not polled while the socket is up).
    if (!m.resume && m.items.some((n) => n.kind === 'alert')) void queryClient.invalidateQueries({ queryKey: alertListQueryKey });
  } else if (m.type === 'alerts-changed') void queryClient.invalidateQueries({ queryKey: alertListQueryKey });
  else if (m.type === 'maintenance-changed') void queryClient.invalidateQueries({ queryKey: maintenanceQueryKey });
  else if (m.type === 'notifications-read') queryClient.setQueryData<NotificationList>(notificationsQueryKey, (list) => withRead(list, m.ids, m.unread));
  else if (m.type === 'managed-changed') void refreshManaged(queryClient);
  else if (m.type === 'settings-changed' && queryClient.getQueryData(serverSettingsQueryKey)) {
    // Saved in another tab (or this one): read them again; changes still on their way here are kept.
    getServerSettings().then(
      (settings) => receiveServerSettings(queryClient, settings),
      () => undefined,
    );
  }
}

/** The one stream of a query client (the tab), shared by every component that wants it. */
class SharedStream {
  private users = 0;
  private open = false;
  private handle: { close(): void } | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly queryClient: QueryClient) {}

  acquire(): () => void {
    if (++this.users === 1) this.start();
    return () => {
      if (--this.users === 0) this.stop();
    };
  }

  readonly subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly isOpen = () => this.open;

  private wasOpen = false;

  private setOpen(open: boolean): void {
    if (open === this.open) return;
    this.open = open;
    // Open again after a gap: what changed meanwhile was not pushed (read it once; the notifications resume by themselves).
    if (open && this.wasOpen) {
      void refreshManaged(this.queryClient);
      void this.queryClient.invalidateQueries({ queryKey: alertListQueryKey });
      void this.queryClient.invalidateQueries({ queryKey: maintenanceQueryKey });
    }
    if (open) this.wasOpen = true;
    for (const fn of this.listeners) fn();
  }

  private start(): void {
    if (!streamOptions) return;
    const qc = this.queryClient;
    this.handle = openAppStream(
      { onMessage: (m) => apply(qc, m), onState: (state) => this.setOpen(state === 'open') },
      { ...streamOptions, resumeFrom: () => resumePoint(qc.getQueryData<NotificationList>(notificationsQueryKey)) },
    );
  }

  private stop(): void {
    this.handle?.close();
    this.handle = null;
    this.setOpen(false);
  }
}

const shared = new WeakMap<QueryClient, SharedStream>();

/**
 * Keeps the tab's `/v1/stream` open while signed in (one socket however many callers); true while
 * it is up and resumed — the notifications are then pushed, not polled.
 */
export function useAppStream(): boolean {
  const queryClient = useQueryClient();
  const signedIn = useAccessToken() !== null;
  const stream = useMemo(() => {
    let s = shared.get(queryClient);
    if (!s) shared.set(queryClient, (s = new SharedStream(queryClient)));
    return s;
  }, [queryClient]);
  useEffect(() => (signedIn ? stream.acquire() : undefined), [stream, signedIn]);
  return useSyncExternalStore(stream.subscribe, stream.isOpen, stream.isOpen);
}
