import { z } from 'zod';
import { exchangeIdSchema, networkSchema } from '../../../src/api/contracts/common';
import { notificationSchema } from '../../../src/api/contracts/notifications';

const id = z.string().uuid();

/**
 * What happened, that other parts of the server (on this instance and on every other one) act on.
 * One schema per event: the payload type is `z.infer` of it, and a message from another instance is
 * parsed with it before any subscriber sees it.
 */
export const APP_EVENTS = {
  /** The key and its sealed credentials are gone: its streams end, its connector state is dropped. */
  'api-key.deleted': z.object({ apiKeyId: id, userId: id }),
  /** The server no longer holds the key's credentials for managed brackets. */
  'api-key.custody-withdrawn': z.object({ apiKeyId: id, userId: id }),
  /** One sign-in locked the key (`DELETE /v1/api-keys/{id}/unlock`): every instance forgets that unlock. */
  'api-key.locked': z.object({ apiKeyId: id, userId: id, familyId: id }),
  /** One sign-in ended (sign-out, a refresh token reused): its live connections close. */
  'session.ended': z.object({ userId: id, familyId: id }),
  /** Every sign-in of the user ended but `keepFamilyId` (a password change): their live connections close. */
  'user.sessions-ended': z.object({ userId: id, keepFamilyId: id.nullable() }),
  /** An admin changed the user's role or email: every instance re-reads the user on their next request. */
  'user.changed': z.object({ userId: id }),
  /** The key's row changed (server custody given): every instance re-reads it on the next trading call. */
  'api-key.changed': z.object({ apiKeyId: id, userId: id }),
  /** The user became or stopped being a funded user, or their trade limits changed: every instance re-reads them. */
  'funded-user.changed': z.object({ userId: id }),
  /**
   * A notification was written (in the inserting transaction): the user's open tabs get it. It carries the
   * notification and the user's unread count as of the insert, so no instance reads the database to push it;
   * one too large for NOTIFY carries only its id and each instance with the user's sockets reads the row.
   */
  'notification.created': z.object({ userId: id, notificationId: id, item: notificationSchema.optional(), unread: z.number().int().nonnegative().optional() }),
  /** Notifications were marked read (these ids, or all when null): the user's other tabs update their bell (`unread` as of the update). */
  'notification.read': z.object({ userId: id, ids: z.array(id).max(50).nullable(), unread: z.number().int().nonnegative().optional() }),
  /** The user's server settings were saved: the user's other tabs read them again. */
  'settings.changed': z.object({ userId: id }),
  /**
   * What the server does with the user's guarded brackets changed (one started, acted, stopped: an activity entry
   * was written): the user's tabs read the guarded brackets and the activity log again instead of polling them.
   */
  'managed.changed': z.object({ userId: id }),
  /** The user set, moved, re-armed or deleted alerts: the user's tabs read the list again (they do not poll it while their socket is up). */
  'alerts.changed': z.object({ userId: id }),
  /**
   * An alert became active or changed while active (set, moved, re-armed, its note edited: a new version): the
   * evaluator of its exchange and network watches this version at once instead of at its next read of the alerts.
   */
  'alert.active': z.object({
    id,
    userId: id,
    exchange: exchangeIdSchema,
    network: networkSchema,
    symbol: z.string().min(1).max(64),
    initialPrice: z.number().finite(),
    triggerPrice: z.number().finite(),
    /** The version (`alerts.updated_at`, ms): the firing is guarded by it. */
    updatedAt: z.number().int(),
  }),
  /** An admin set or cleared the maintenance banner: every open tab reads it again. */
  'maintenance.changed': z.object({}),
} as const;

export type AppEventName = keyof typeof APP_EVENTS;
export type AppEvent<K extends AppEventName> = z.infer<(typeof APP_EVENTS)[K]>;

const NAMES = Object.keys(APP_EVENTS) as [AppEventName, ...AppEventName[]];

/** What crosses instances: the event, where it was published (its own instance skips it) and an id (deduplication). */
export const envelopeSchema = z.object({
  id: z.string().min(1).max(64),
  origin: z.string().min(1).max(64),
  name: z.enum(NAMES),
  payload: z.unknown(),
});
export type Envelope = z.infer<typeof envelopeSchema>;
