import { z } from 'zod';
import { alertSchema } from './alerts';

/**
 * What the server tells a user (issue 13): an alert it fired with no tab open, an action a
 * server-side job took. `GET /v1/notifications` lists the newest first with the unread count (the
 * top bar's bell); the open app polls it and rings for the ones that arrived since it last looked.
 */
export const NOTIFICATIONS_PAGE_MAX = 50;

export const NOTIFICATION_KINDS = ['alert', 'job'] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);

export const notificationSchema = z.object({
  id: z.uuid(),
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** What it is about: the alert id for `alert`, the job key for `job`. */
  refId: z.string().nullable(),
  /** For `alert`: the alert as it fired (the app updates its alert list and plays the sound). */
  alert: alertSchema.nullable(),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const listNotificationsQuerySchema = z
  .object({
    limit: z.coerce.number('Invalid limit').int('Invalid limit').min(1, 'Invalid limit').max(NOTIFICATIONS_PAGE_MAX, `Invalid limit: at most ${NOTIFICATIONS_PAGE_MAX}`).optional(),
  })
  .strict();

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int().nonnegative(),
  /** The server's clock when it answered: how old each item is, whatever the device's clock says. */
  now: z.iso.datetime(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** `POST /v1/notifications/read`: the given ids, or all of them when `ids` is left out. */
export const markNotificationsReadBodySchema = z
  .object({ ids: z.array(z.uuid('Invalid ids: each must be a notification id')).min(1).max(NOTIFICATIONS_PAGE_MAX).optional() })
  .strict();
export type MarkNotificationsReadBody = z.infer<typeof markNotificationsReadBodySchema>;
export const markNotificationsReadResultSchema = z.object({ unread: z.number().int().nonnegative() });
