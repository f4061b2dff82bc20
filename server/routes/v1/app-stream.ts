import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type WebSocket from 'ws';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import type { AppStreamServerMessage } from '../../../src/api/contracts/notifications';
import { getNotification, unreadCount } from '../../services/notifications';
import { AppStreamConnection } from './app-stream-connection';

/** How often a connection re-checks that its session stands (sign-out events close it at once; this is the backstop). */
const SESSION_CHECK_MS = 60_000;
/** How often the server pings each socket and sends `keepalive` (proxies drop idle sockets after about a minute). */
const KEEPALIVE_MS = 25_000;

const STREAM_DESCRIPTION = [
  'WebSocket (issue 26): the app`s push channel, one per tab. Send `{"op":"auth","accessToken","since","sinceTime"}` within 10 s',
  '(again with a fresh token before it expires; `since` is the newest notification id the tab holds, `sinceTime` the server`s',
  '`now` of its list). The server answers `authenticated`, then `notifications` with `resume: true` (what was written since,',
  'from 10 s before: drop the ids you have), then pushes each new notification, `notifications-read` when any tab marks some',
  'read, `settings-changed` when the settings are saved and `managed-changed` when the server acted on a guarded bracket, `alerts-changed` when the alerts were edited elsewhere, `maintenance-changed` to everyone when the banner changed. `keepalive` every 25 s. Closed with 4401 when the session ends.',
].join(' ');

export interface AppStreamOptions {
  /** Tests: how often the session is re-checked and the socket pinged. */
  sessionCheckMs?: number;
  keepaliveMs?: number;
}

/** The user's open connections on this instance, and what every instance's events push to them. */
class AppStreamHub {
  private readonly byUser = new Map<string, Set<AppStreamConnection>>();
  readonly live = new Set<AppStreamConnection>();

  constructor(private readonly app: FastifyInstance) {}

  join(c: AppStreamConnection): void {
    const id = c.user()?.id;
    if (!id) return;
    let set = this.byUser.get(id);
    if (!set) this.byUser.set(id, (set = new Set()));
    set.add(c);
  }

  leave(c: AppStreamConnection): void {
    this.live.delete(c);
    const id = c.user()?.id;
    const set = id ? this.byUser.get(id) : undefined;
    if (!set) return;
    set.delete(c);
    if (set.size === 0) this.byUser.delete(id!);
  }

  has(userId: string): boolean {
    return (this.byUser.get(userId)?.size ?? 0) > 0;
  }

  send(userId: string, message: AppStreamServerMessage): void {
    const data = JSON.stringify(message);
    // A pushed notification goes to the sockets that have not had it (a resume may have carried it already).
    const once = message.type === 'notifications' && !message.resume && message.items.length === 1 ? message.items[0]!.id : null;
    for (const c of this.byUser.get(userId) ?? []) if (once === null || c.firstSend(once)) c.sendRaw(data);
  }

  /** To every signed-in socket of this instance (what concerns everyone: the maintenance banner). */
  sendAll(message: AppStreamServerMessage): void {
    const data = JSON.stringify(message);
    for (const set of this.byUser.values()) for (const c of set) c.sendRaw(data);
  }

  /** Reads what to push only when the user has a socket here; off the publisher's path (never awaited by the bus). */
  push(userId: string, read: () => Promise<AppStreamServerMessage | null>): void {
    if (!this.has(userId)) return;
    read().then(
      (message) => message && this.send(userId, message),
      (err: unknown) => this.app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'app stream: a push failed'),
    );
  }
}

/** `/v1/stream`: the app's push channel (notifications as they are written, issue 26). */
export const appStreamRoutes: FastifyPluginAsync<AppStreamOptions> = async (app, opts) => {
  const secret = app.config.JWT_SECRET ?? '';
  const hub = new AppStreamHub(app);
  const { db } = app;

  // The event carries the notification and the count (no query per instance); only one too large for NOTIFY is read.
  app.events.on('notification.created', ({ userId, notificationId, item, unread }) => {
    if (item && unread !== undefined) return hub.send(userId, { type: 'notifications', items: [item], unread, now: new Date().toISOString(), resume: false });
    hub.push(userId, async () => {
      const [n, count] = await Promise.all([getNotification(db, userId, notificationId), unreadCount(db, userId)]);
      return n && { type: 'notifications', items: [n], unread: count, now: new Date().toISOString(), resume: false };
    });
  });
  app.events.on('notification.read', ({ userId, ids, unread }) => {
    if (unread !== undefined) return hub.send(userId, { type: 'notifications-read', ids, unread });
    hub.push(userId, async () => ({ type: 'notifications-read', ids, unread: await unreadCount(db, userId) }));
  });
  app.events.on('settings.changed', ({ userId }) => hub.send(userId, { type: 'settings-changed' }));
  app.events.on('managed.changed', ({ userId }) => hub.send(userId, { type: 'managed-changed' }));
  app.events.on('alerts.changed', ({ userId }) => hub.send(userId, { type: 'alerts-changed' }));
  app.events.on('maintenance.changed', () => hub.sendAll({ type: 'maintenance-changed' }));
  app.events.on('session.ended', ({ familyId }) => {
    for (const c of hub.live) if (c.user()?.familyId === familyId) c.signedOut();
  });
  app.events.on('user.sessions-ended', ({ userId, keepFamilyId }) => {
    for (const c of hub.live) {
      const u = c.user();
      if (u?.id === userId && u.familyId !== keepFamilyId) c.signedOut();
    }
  });

  app.route({
    method: 'GET',
    url: '/stream',
    schema: { tags: ['notifications'], summary: 'The app`s push channel (WebSocket: upgrade required)', description: STREAM_DESCRIPTION, response: { 426: errorResponseSchema } },
    handler: async (_req, reply) => reply.code(426).header('upgrade', 'websocket').send({ message: 'Upgrade required: /v1/stream is a WebSocket' }),
    wsHandler: (socket: WebSocket) => {
      const connection = new AppStreamConnection(socket, {
        app,
        secret,
        sessionCheckMs: opts.sessionCheckMs ?? SESSION_CHECK_MS,
        keepaliveMs: opts.keepaliveMs ?? KEEPALIVE_MS,
        joined: (c) => hub.join(c),
        ended: (c) => hub.leave(c),
      });
      hub.live.add(connection);
    },
  });
};
