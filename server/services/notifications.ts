import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alertSchema } from '../../src/api/contracts/alerts';
import type { MarkNotificationsReadBody, Notification, NotificationList } from '../../src/api/contracts/notifications';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { notifications, type NotificationRow } from '../db/schema-jobs';
import type { Mailer } from './mailer';
import { getServerSettings } from './settings';

/** Notifications kept per user: the oldest beyond this are deleted when a new one arrives. */
export const NOTIFICATIONS_KEPT = 200;

export interface NewNotification {
  userId: string;
  kind: 'alert' | 'job';
  title: string;
  body: string;
  refId?: string | null;
  data?: Record<string, unknown> | null;
  /** Same key, same notification: inserting it twice (a job re-run after a crash) adds nothing. */
  dedupeKey: string;
}

export const toNotificationDto = (row: NotificationRow): Notification => {
  const alert = row.kind === 'alert' ? alertSchema.safeParse(row.data?.alert) : null;
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    refId: row.refId,
    alert: alert?.success ? alert.data : null,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
};

/** Inserts unless the same `dedupeKey` is there already; the row when it is new, else null. */
export async function addNotification(db: Db, n: NewNotification): Promise<NotificationRow | null> {
  const [row] = await db
    .insert(notifications)
    .values({ userId: n.userId, kind: n.kind, title: n.title, body: n.body, refId: n.refId ?? null, data: n.data ?? null, dedupeKey: n.dedupeKey })
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning();
  if (row) await prune(db, n.userId);
  return row ?? null;
}

async function prune(db: Db, userId: string): Promise<void> {
  const stale = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .offset(NOTIFICATIONS_KEPT);
  if (stale.length) await db.delete(notifications).where(inArray(notifications.id, stale.map((s) => s.id)));
}

async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function listNotifications(db: Db, userId: string, limit = 30): Promise<NotificationList> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return { items: rows.map(toNotificationDto), unread: await unreadCount(db, userId), now: new Date().toISOString() };
}

export async function markNotificationsRead(db: Db, userId: string, body: MarkNotificationsReadBody): Promise<{ unread: number }> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), body.ids ? inArray(notifications.id, body.ids) : undefined));
  return { unread: await unreadCount(db, userId) };
}

/**
 * E-mails a notification when the user asked for it (`alertEmails`) and the server can send mail
 * (SMTP_URL: without it the mailer would only log, so nothing is "sent"). Marked `emailed_at`
 * first, guarded, so a re-run never sends it twice; a failed send is logged, not retried.
 */
export async function emailNotification(
  db: Db,
  mailer: Mailer,
  row: NotificationRow,
  opts: { smtp: boolean; productName: string; log?: { warn(obj: object, msg: string): void } },
): Promise<boolean> {
  if (!opts.smtp) return false;
  const settings = await getServerSettings(db, row.userId);
  if (!settings.alertEmails) return false;
  const claimed = await db
    .update(notifications)
    .set({ emailedAt: new Date() })
    .where(and(eq(notifications.id, row.id), isNull(notifications.emailedAt)))
    .returning({ id: notifications.id });
  if (claimed.length === 0) return false;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).limit(1);
  if (!user) return false;
  try {
    await mailer.send({ to: user.email, subject: `${opts.productName}: ${row.title}`, text: `${row.body}\n\n${opts.productName}` });
    return true;
  } catch (err) {
    opts.log?.warn({ err }, 'Could not e-mail a notification');
    return false;
  }
}
