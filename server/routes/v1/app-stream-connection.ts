import type { FastifyInstance } from 'fastify';
import type WebSocket from 'ws';
import { appStreamClientMessageSchema, type AppStreamClientMessage, type AppStreamServerMessage } from '../../../src/api/contracts/notifications';
import { HttpError } from '../../lib/http-error';
import { AUTH_REQUIRED, authenticateAccessToken, type AuthUser } from '../../plugins/authenticate';
import { notificationsSince, unreadCount } from '../../services/notifications';

const AUTH_TIMEOUT_MS = 10_000;
/** The most a connection may have queued for a client that does not read: beyond it the socket is dropped (the tab resumes). */
export const APP_STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;
/** The largest message a client sends: an `auth` (a JWT and two ids) or a `ping`. */
export const APP_STREAM_MAX_MESSAGE_BYTES = 8 * 1024;
/** RFC 6455 §7.4.1: "a message that is too big for it to process". */
const MESSAGE_TOO_BIG = 1009;
const SIGNED_OUT = 'Signed out: the session ended';
/** RFC 6455 §7.4.1 "Try Again Later": the server could not serve the socket now. */
const TRY_AGAIN_LATER = 1013;
/** Notification ids a connection remembers having sent (a resume and a late push may carry the same one). */
const SENT_IDS_KEPT = 500;

const byteLength = (raw: WebSocket.RawData): number => (Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw.byteLength);

export interface AppStreamConnectionDeps {
  app: FastifyInstance;
  secret: string;
  sessionCheckMs: number;
  keepaliveMs: number;
  /** The first `auth` succeeded: pushes for the user reach this connection from now on. */
  joined: (connection: AppStreamConnection) => void;
  /** The connection is over (closed, refused, dropped): forget it. */
  ended: (connection: AppStreamConnection) => void;
}

type AuthMessage = Extract<AppStreamClientMessage, { op: 'auth' }>;

/**
 * One tab's `/v1/stream` socket: `auth` within 10 s (and again before the token expires), then the
 * resume (what it missed since the notification it names) and every push for its user. The session
 * is re-checked every `sessionCheckMs` (the route closes it at once on a sign-out event). Every
 * `keepaliveMs` the server pings (a socket that did not answer the last ping is dropped) and sends a
 * `keepalive` message (the browser cannot see pings: silence tells it the socket is dead). A client
 * that does not read its messages is dropped once `APP_STREAM_MAX_BUFFERED_BYTES` are queued.
 */
export class AppStreamConnection {
  private authed: AuthUser | null = null;
  private token = '';
  private authPending: Promise<void> | null = null;
  private closed = false;
  private answeredPing = true;
  private readonly sentIds = new Set<string>();
  private readonly authTimer: NodeJS.Timeout;
  private readonly sessionTimer: NodeJS.Timeout;
  private readonly keepaliveTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: AppStreamConnectionDeps,
  ) {
    this.authTimer = setTimeout(() => this.refuse(401, AUTH_REQUIRED), AUTH_TIMEOUT_MS);
    this.sessionTimer = setInterval(() => {
      if (!this.authed) return;
      // Held per sign-in like a request's check (dropped on the events that end it). Only a 401 signs the tab
      // out: the database slow or away is not a sign-out (the next check asks again).
      authenticateAccessToken(deps.app.db, deps.secret, this.token, deps.app.sessionCache).catch((err: unknown) => {
        if (err instanceof HttpError && err.status === 401) this.refuse(401, SIGNED_OUT);
        else deps.app.log.warn({ err }, 'Could not re-check a stream socket’s session; it stays open until the next check');
      });
    }, deps.sessionCheckMs);
    this.keepaliveTimer = setInterval(() => this.keepalive(), deps.keepaliveMs);
    this.sessionTimer.unref?.();
    this.keepaliveTimer.unref?.();
    socket.on('pong', () => (this.answeredPing = true));
    socket.on('message', (raw, isBinary) => this.receive(raw, isBinary));
    socket.on('close', () => this.cleanup());
    socket.on('error', () => this.cleanup());
  }

  user(): AuthUser | null {
    return this.authed;
  }

  /**
   * True the first time this socket is given notification `id`: the push of a notification written just
   * before the tab reconnected can arrive after the resume that already carried it, and a socket never
   * carries one twice (the tab also merges by id).
   */
  firstSend(id: string): boolean {
    if (this.sentIds.has(id)) return false;
    this.sentIds.add(id);
    if (this.sentIds.size > SENT_IDS_KEPT) this.sentIds.delete(this.sentIds.values().next().value as string);
    return true;
  }

  signedOut(): void {
    this.refuse(401, SIGNED_OUT);
  }

  /** A message already serialised (one `JSON.stringify` for every tab of the user). */
  sendRaw(data: string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount + data.length > APP_STREAM_MAX_BUFFERED_BYTES) {
      // Falling behind: dropped rather than queued without bound. The tab reconnects and resumes.
      this.cleanup();
      this.socket.terminate();
      return;
    }
    this.socket.send(data);
  }

  send(message: AppStreamServerMessage): void {
    this.sendRaw(JSON.stringify(message));
  }

  private keepalive(): void {
    if (this.closed) return;
    if (!this.answeredPing) {
      this.cleanup();
      this.socket.terminate();
      return;
    }
    this.answeredPing = false;
    this.socket.ping();
    if (this.authed) this.send({ type: 'keepalive' });
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.authTimer);
    clearInterval(this.sessionTimer);
    clearInterval(this.keepaliveTimer);
    this.deps.ended(this);
  }

  private refuse(status: number, message: string): void {
    this.send({ type: 'error', message });
    this.cleanup();
    this.socket.close(4000 + status, message.slice(0, 120));
  }

  private receive(raw: WebSocket.RawData, isBinary: boolean): void {
    if (byteLength(raw) > APP_STREAM_MAX_MESSAGE_BYTES) {
      this.cleanup();
      this.socket.close(MESSAGE_TOO_BIG, `Message too big: at most ${APP_STREAM_MAX_MESSAGE_BYTES / 1024} KB`);
      return;
    }
    let parsed;
    try {
      parsed = appStreamClientMessageSchema.safeParse(JSON.parse(isBinary ? '' : raw.toString()));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      this.send({ type: 'error', message: 'Invalid message: send {"op":"auth","accessToken","since"} or {"op":"ping"}' });
      return;
    }
    const message = parsed.data;
    if (message.op === 'ping') return this.send({ type: 'pong' });
    this.auth(message);
  }

  private auth(message: AuthMessage): void {
    if (this.authPending) {
      void this.authPending.then(() => this.auth(message));
      return;
    }
    const first = this.authed === null;
    this.authPending = authenticateAccessToken(this.deps.app.db, this.deps.secret, message.accessToken, this.deps.app.sessionCache)
      .then(
        async (u) => {
          if (this.closed) return;
          if (this.authed && u.id !== this.authed.id) return this.refuse(403, 'A stream belongs to one user');
          this.authed = u;
          this.token = message.accessToken;
          clearTimeout(this.authTimer);
          this.send({ type: 'authenticated' });
          if (first) {
            this.deps.joined(this);
            await this.resume(u.id, message);
          }
        },
        (err: unknown) => {
          if (err instanceof HttpError) return this.refuse(err.status === 401 ? 401 : err.status, err.message);
          // The database slow or away is not a sign-out (a 4401 sends the tab to refresh its tokens): a signed-in
          // socket keeps its session until the next check; a new one is told to come back (1013, the tab's back-off).
          this.deps.app.log.warn({ err }, 'Could not check a stream socket’s token');
          if (first && !this.closed) {
            this.cleanup();
            this.socket.close(TRY_AGAIN_LATER, 'Could not check the session: try again');
          }
        },
      )
      .finally(() => (this.authPending = null));
  }

  /** What the tab missed: pushes already reach it (joined first), so nothing falls between the two. */
  private async resume(userId: string, message: AuthMessage): Promise<void> {
    const { db, log } = this.deps.app;
    try {
      const [items, unread] = await Promise.all([notificationsSince(db, userId, { id: message.since, time: message.sinceTime }), unreadCount(db, userId)]);
      this.send({ type: 'notifications', items: items.filter((n) => this.firstSend(n.id)), unread, now: new Date().toISOString(), resume: true });
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'app stream: resume failed');
      this.cleanup();
      this.socket.close(1011, 'Could not read your notifications');
    }
  }
}
