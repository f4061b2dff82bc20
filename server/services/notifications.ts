import { and, count, desc, eq, getTableColumns, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alertSchema } from '../../src/api/contracts/alerts';
import type { MarkNotificationsReadBody, Notification, NotificationList } from '../../src/api/contracts/notifications';
import type { Db } from '../db/client';
import type { Emit, EventBus } from './events/bus';
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

/**
 * How a new notification reaches the user's open tabs (`notification.created`, issue 26): the `emit`
 * of the caller's transaction (the event goes out with its commit), or the bus (the insert gets a
 * transaction of its own with the event in it). None in seeds and unit tests: nobody is told.
 */
export type NotificationEvents = Emit | EventBus | null | undefined;

/**
 * The largest notification carried in its event (JSON bytes): with the envelope it stays below NOTIFY's
 * 8000. A larger one (a long alert note) goes as its id, and the instances with the user's sockets read it.
 */
export const NOTIFICATION_EVENT_MAX_BYTES = 6000;

/**
 * Inserts unless the same `dedupeKey` is there already; the row when it is new, else null. A new row
 * publishes `notification.created` in the inserting transaction, with the notification and the user's
 * unread count in it (one count here instead of two queries on every instance holding the user's tabs).
 */
export async function addNotification(db: Db, n: NewNotification, events?: NotificationEvents): Promise<NotificationRow | null> {
  if (events && typeof events !== 'function') {
    const row = await events.transaction(db, (tx, emit) => insertNotification(tx as unknown as Db, n, emit));
    // After the commit (the push is on its way): a prune that fails is done by the user's next notification.
    if (row) await pruneNotifications(db, n.userId).catch(() => undefined);
    return row;
  }
  const row = await insertNotification(db, n, events ?? null);
  // In the caller's transaction (which holds the user's lock when it has events), as the caller chose.
  if (row) await prune(db, n.userId);
  return row;
}

/**
 * Drops the user's notifications beyond the newest NOTIFICATIONS_KEPT, under the user's lock (a mark-read holding
 * it never meets this delete halfway). Outside the transaction that wrote them: off the path of their push.
 */
export async function pruneNotifications(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUnread(tx as unknown as Db, userId);
    await prune(tx as unknown as Db, userId);
  });
}

async function insertNotification(db: Db, n: NewNotification, emit: Emit | null): Promise<NotificationRow | null> {
  return (await insertNotifications(db, [n], emit))[0] ?? null;
}

/**
 * `addNotification` for several in the caller's transaction (an evaluator's burst of fired alerts): one insert,
 * each user's lock and unread count once, then one `notification.created` each — the prune is the caller's, after
 * its commit (`pruneNotifications`), so the transaction the push waits for is short. Answers, in the order given,
 * each row when it is new, else null. `locked`: the caller's transaction took the users' locks already, in a
 * statement before this one (`notificationLocks`, inside its own first statement: one round trip less).
 */
export async function insertNotifications(db: Db, list: readonly NewNotification[], emit: Emit | null, opts: { locked?: boolean } = {}): Promise<Array<NotificationRow | null>> {
  if (!list.length) return [];
  // Users in a fixed order: two transactions locking the same users never wait on each other in a circle. The
  // locks (held to the commit) are taken before the insert, so the unread count read with it — the statement's
  // snapshot begins after every earlier holder committed — counts all of their notifications.
  const userIds = [...new Set(list.map((n) => n.userId))].sort();
  if (emit && !opts.locked) await lockUnreadMany(db, userIds);
  const rows = await db
    .insert(notifications)
    .values(list.map((n) => ({ userId: n.userId, kind: n.kind, title: n.title, body: n.body, refId: n.refId ?? null, data: n.data ?? null, dedupeKey: n.dedupeKey })))
    .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] })
    .returning({
      ...getTableColumns(notifications),
      // The user's unread ones before this insert (a statement does not see its own rows): the count in one trip.
      unreadBefore: sql<number>`(select count(*) from notifications as earlier where earlier.user_id = notifications.user_id and earlier.read_at is null)`.mapWith(Number),
    });
  if (emit && rows.length) {
    for (const userId of userIds) {
      const mine = rows.filter((r) => r.userId === userId);
      for (const { unreadBefore, ...row } of mine) {
        const item = toNotificationDto(row);
        const fits = Buffer.byteLength(JSON.stringify(item)) <= NOTIFICATION_EVENT_MAX_BYTES;
        const unread = unreadBefore + mine.length;
        await emit('notification.created', fits ? { userId, notificationId: row.id, item, unread } : { userId, notificationId: row.id });
      }
    }
  }
  const byKey = new Map(rows.map(({ unreadBefore: _, ...r }) => [`${r.userId} ${r.dedupeKey}`, r]));
  return list.map((n) => byKey.get(`${n.userId} ${n.dedupeKey}`) ?? null);
}

/**
 * Held until the transaction ends: the user's notifications written or marked read one transaction at a time, so
 * of two written at once the later one's unread count includes the earlier (each statement of a READ COMMITTED
 * transaction sees what committed before it) and the last event a tab gets has the true count.
 */
async function lockUnread(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`notifications:${userId}`}, 0))`);
}

/**
 * `lockUnread` of several users (sorted by the caller) as a condition that is always true, for the WHERE of the
 * caller's first statement: Postgres reads it once, before the rows (an InitPlan's one-time filter), and takes the
 * locks in the order given (unnest reads its array in order). The statements after it see every earlier holder's commit.
 */
export function notificationLocks(userIds: readonly string[]): SQL {
  const keys = userIds.map((u) => sql`${`notifications:${u}`}`);
  return sql`(select count(*) from (select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(array[${sql.join(keys, sql`, `)}]::text[]) as k) as locked) >= 0`;
}

/** `lockUnread` of several users in one statement, in the order given (sorted by the caller). */
async function lockUnreadMany(tx: Db, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 1) return lockUnread(tx, userIds[0]!);
  await tx.execute(sql`select ${notificationLocks(userIds)}`);
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

export async function unreadCount(db: Db, userId: string): Promise<number> {
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

/** One of the user's notifications (null: not theirs, or pruned since). */
export async function getNotification(db: Db, userId: string, id: string): Promise<Notification | null> {
  const [row] = await db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.id, id))).limit(1);
  return row ? toNotificationDto(row) : null;
}

/**
 * How far before the last seen notification a resume starts: `created_at` is when the inserting
 * transaction began, so a row committed after the last seen one may carry an earlier time. The
 * client drops the ids it already has.
 */
export const RESUME_SLACK_MS = 10_000;
/** At most this many notifications are sent on a resume (the newest; the client lists 30). */
export const RESUME_MAX = 50;

/**
 * What a tab that reconnects missed, oldest first: the user's notifications written since `since`
 * (the newest one it saw) or, when that one is gone or not given, since `sinceTime` (the server's
 * clock at its last list), each less `RESUME_SLACK_MS`; with neither, the newest `RESUME_MAX`.
 */
export async function notificationsSince(db: Db, userId: string, since: { id?: string | null; time?: string | null }): Promise<Notification[]> {
  let from: Date | null = since.time ? new Date(since.time) : null;
  if (since.id) {
    const [seen] = await db
      .select({ createdAt: notifications.createdAt })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.id, since.id)))
      .limit(1);
    if (seen) from = seen.createdAt;
  }
  const rows = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), from ? gte(notifications.createdAt, new Date(from.getTime() - RESUME_SLACK_MS)) : undefined))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(RESUME_MAX);
  return rows.reverse().map(toNotificationDto);
}

/** Marks them read; the count after it, in order with the notifications being written (`lockUnread`). */
export async function markNotificationsRead(db: Db, userId: string, body: MarkNotificationsReadBody): Promise<{ unread: number }> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await lockUnread(tx, userId);
    await tx
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), body.ids ? inArray(notifications.id, body.ids) : undefined));
    return { unread: await unreadCount(tx, userId) };
  });
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
