import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  markNotificationsReadBodySchema,
  markNotificationsReadResultSchema,
  notificationListSchema,
  type MarkNotificationsReadBody,
  type NotificationList,
} from '../contracts/notifications';
import { http } from '../client';
import { useAccessToken } from '../use-access-token';
import { useAppStream } from '../use-app-stream';
import { notificationsQueryKey, withFetched } from './notifications-cache';

export { notificationsQueryKey };

/**
 * How often the app asks for new notifications while its push channel (`/v1/stream`) is down: the
 * fallback. Kept polling in background tabs, so a tab left behind another window still rings.
 */
export const NOTIFICATIONS_POLL_MS = 2_000;

/** `GET /v1/notifications`: the newest notifications and the unread count. */
export async function listNotifications(): Promise<NotificationList> {
  const { data } = await http.get<unknown>('/v1/notifications');
  return notificationListSchema.parse(data);
}

/**
 * The signed-in user's notifications (the top bar's bell; the app rings for the new ones). Idle
 * while signed out. New ones are pushed on `/v1/stream` (issue 26) into this query's cache; the list
 * is read at start and polled only while the stream is down.
 */
export function useNotifications() {
  const token = useAccessToken();
  const queryClient = useQueryClient();
  const pushed = useAppStream();
  return useQuery({
    queryKey: notificationsQueryKey,
    // A push that landed while the read was on its way stays listed.
    queryFn: async () => withFetched(await listNotifications(), queryClient.getQueryData<NotificationList>(notificationsQueryKey)),
    enabled: token !== null,
    refetchInterval: pushed ? false : NOTIFICATIONS_POLL_MS,
    refetchIntervalInBackground: true,
    // A failed poll is retried by the next one; the bell keeps the last list meanwhile.
    retry: false,
    meta: { silent: true },
  });
}

/** `POST /v1/notifications/read`: the given ids, or all. */
export async function markNotificationsRead(body: MarkNotificationsReadBody): Promise<{ unread: number }> {
  const { data } = await http.post<unknown>('/v1/notifications/read', markNotificationsReadBodySchema.parse(body));
  return markNotificationsReadResultSchema.parse(data);
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: (body) => {
      // Read at once on screen; the answer's count (or a refetch after a failure) settles it.
      queryClient.setQueryData<NotificationList>(notificationsQueryKey, (list) => {
        if (!list) return list;
        const ids = body.ids ? new Set(body.ids) : null;
        const items = list.items.map((n) => (ids === null || ids.has(n.id) ? { ...n, read: true } : n));
        const newlyRead = list.items.filter((n) => !n.read && (ids === null || ids.has(n.id))).length;
        return { ...list, items, unread: Math.max(0, list.unread - newlyRead) };
      });
    },
    onSuccess: ({ unread }) => queryClient.setQueryData<NotificationList>(notificationsQueryKey, (list) => (list ? { ...list, unread } : list)),
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
    meta: { errorMessage: 'Unable to mark notifications read' },
  });
}
