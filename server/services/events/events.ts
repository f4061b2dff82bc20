import { z } from 'zod';

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
