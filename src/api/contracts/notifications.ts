import { z } from 'zod';
import { alertSchema } from './alerts';

/**
 * What the server tells a user (issue 13): an alert it fired with no tab open, an action a
 * server-side job took. `GET /v1/notifications` lists the newest first with the unread count (the
 * top bar's bell); the open app hears new ones on `/v1/stream` (below), reads the list at start and
 * while the stream is down, and rings for the ones that arrived since it last looked.
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

/**
 * `/v1/stream` (WebSocket, issue 26): the app's own push channel, one per tab. The client sends
 * `auth` first (and again with a fresh token before it expires); the first `auth` may say what the
 * tab last saw — `since` (the newest notification id it holds) and/or `sinceTime` (the server's
 * `now` of the list it holds) — and the server answers `notifications` with `resume: true`: what was
 * written since (from a few seconds before, so a commit that landed out of order is not missed; the
 * client drops ids it has). Then every new notification is pushed as `notifications` with one item.
 */
export const appStreamClientMessageSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('auth'),
    accessToken: z.string().min(1).max(4096),
    since: z.uuid().nullish(),
    sinceTime: z.iso.datetime().nullish(),
  }),
  z.object({ op: z.literal('ping') }),
]);
export type AppStreamClientMessage = z.infer<typeof appStreamClientMessageSchema>;

export const appStreamServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticated') }),
  /** New notifications, oldest first, with the unread count after them. `resume`: the answer to the first `auth`. */
  z.object({ type: z.literal('notifications'), items: z.array(notificationSchema), unread: z.number().int().nonnegative(), now: z.iso.datetime(), resume: z.boolean() }),
  /** Notifications were marked read (in any tab): these ids, or all when null; the unread count after. */
  z.object({ type: z.literal('notifications-read'), ids: z.array(z.uuid()).nullable(), unread: z.number().int().nonnegative() }),
  /** The user's server settings changed (saved in another tab): read them again. */
  z.object({ type: z.literal('settings-changed') }),
  /** The server's guarded brackets of the user changed (issue 26): read them and the activity log again. */
  z.object({ type: z.literal('managed-changed') }),
  /** The user's alerts were set, moved or deleted (in another tab, on another device): read the list again. */
  z.object({ type: z.literal('alerts-changed') }),
  /** An admin set or cleared the maintenance banner: every tab reads it again. */
  z.object({ type: z.literal('maintenance-changed') }),
  /** Sent every few seconds of silence: a socket that hears nothing for long is dead. */
  z.object({ type: z.literal('keepalive') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type AppStreamServerMessage = z.infer<typeof appStreamServerMessageSchema>;
