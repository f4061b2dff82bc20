import type { AppStreamServerMessage, Notification, NotificationList } from '../contracts/notifications';

export const notificationsQueryKey = ['notifications'] as const;

/** As many as `GET /v1/notifications` lists by default: the bell shows the newest this many. */
export const NOTIFICATIONS_LISTED = 30;

type Pushed = Extract<AppStreamServerMessage, { type: 'notifications' }>;

const newestFirst = (a: Notification, b: Notification) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1);

/** One list of `items` by id (each once; read wins: a notification is never unread again), newest first. */
function union(items: Notification[], more: Notification[]): Notification[] {
  const byId = new Map(items.map((n) => [n.id, n]));
  for (const n of more) {
    const had = byId.get(n.id);
    byId.set(n.id, had ? { ...n, read: had.read || n.read } : n);
  }
  return [...byId.values()].sort(newestFirst).slice(0, NOTIFICATIONS_LISTED);
}

/**
 * A push (or a resume) into the cached list: new ids added, ids already held kept once — so what
 * a resume sends again after a reconnect is not new to the app and does not ring twice.
 */
export function withPushed(list: NotificationList | undefined, m: Pushed): NotificationList {
  return { items: union(list?.items ?? [], m.items), unread: m.unread, now: m.now };
}

/** Marked read in some tab: those ids (all when null) read here too, with the server's count. */
export function withRead(list: NotificationList | undefined, ids: string[] | null, unread: number): NotificationList | undefined {
  if (!list) return list;
  const set = ids ? new Set(ids) : null;
  return { ...list, unread, items: list.items.map((n) => (set === null || set.has(n.id) ? { ...n, read: true } : n)) };
}

/**
 * A fetched list against what the cache holds: a notification pushed while the request was on its way
 * (newer than everything the answer lists) is kept, not dropped until the next read.
 */
export function withFetched(answer: NotificationList, cached: NotificationList | undefined): NotificationList {
  const newest = answer.items[0]?.createdAt ?? '';
  const listed = new Set(answer.items.map((n) => n.id));
  const later = (cached?.items ?? []).filter((n) => !listed.has(n.id) && n.createdAt > newest);
  if (later.length === 0) return answer;
  return { ...answer, items: union(answer.items, later), unread: answer.unread + later.filter((n) => !n.read).length };
}

/** What a reconnecting stream says it saw: the newest notification held and the server's time of the list. */
export function resumePoint(list: NotificationList | undefined): { since: string | null; sinceTime: string | null } {
  if (!list) return { since: null, sinceTime: null };
  return { since: list.items[0]?.id ?? null, sinceTime: list.now };
}
