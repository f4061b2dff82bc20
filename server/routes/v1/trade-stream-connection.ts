import type { FastifyInstance } from 'fastify';
import type WebSocket from 'ws';
import { streamClientMessageSchema, type StreamClientMessage, type StreamServerMessage } from '../../../src/api/contracts/trading';
import { HttpError } from '../../lib/http-error';
import { AUTH_REQUIRED, authenticateAccessToken, type AuthUser } from '../../plugins/authenticate';
import { getApiKey } from '../../services/api-keys';
import type { StreamSubscriber } from '../../services/trading/account-stream';
import type { TradeStreamHub } from '../../services/trading/stream-hub';
import { openUnlocked } from '../../services/trading/unlock-cache';

const AUTH_TIMEOUT_MS = 10_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * The largest message a client may send: before auth only an `auth` (a JWT) or a `ping` is expected,
 * so 4 KB; after it `subscribe` messages of a few hundred bytes, so 64 KB is plenty (and is also ws's
 * `maxPayload` for every socket, set in app.ts, which refuses a larger frame before buffering it).
 */
export const STREAM_MAX_MESSAGE_BYTES = { beforeAuth: 4 * 1024, afterAuth: 64 * 1024 } as const;
/** RFC 6455 §7.4.1: "a message that is too big for it to process". */
const MESSAGE_TOO_BIG = 1009;
const SIGNED_OUT = 'Signed out: the session ended';

const byteLength = (raw: WebSocket.RawData): number => (Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw.byteLength);

export interface TradeStreamConnectionDeps {
  app: FastifyInstance;
  secret: string;
  hub: TradeStreamHub;
  sessionCheckMs: number;
  /** The connection is over (closed, refused, errored): forget it. */
  ended: () => void;
}

type SubscribeMessage = Extract<StreamClientMessage, { op: 'subscribe' }>;

/**
 * One browser's `/v1/trade/stream` socket: `auth` within 10 s (and again before the token expires),
 * then one `subscribe` per key; the session is re-checked every `sessionCheckMs` and on the events the
 * route hears. Ending it (close, refusal) unsubscribes every key from the hub.
 */
export class TradeStreamConnection {
  private authed: AuthUser | null = null;
  private token = '';
  /** The first `auth` while it is being checked: a `subscribe` sent right behind it waits for it. */
  private authPending: Promise<void> | null = null;
  private closed = false;
  private readonly keys = new Set<string>();
  private readonly authTimer: NodeJS.Timeout;
  private readonly sessionTimer: NodeJS.Timeout;
  private readonly sub: StreamSubscriber;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: TradeStreamConnectionDeps,
  ) {
    this.sub = { send: (message) => this.send(message), ended: (apiKeyId) => this.keys.delete(apiKeyId) };
    this.authTimer = setTimeout(() => this.refuse(401, AUTH_REQUIRED), AUTH_TIMEOUT_MS);
    // Sign-out revokes the session: the next check closes the stream (and its exchange connections).
    this.sessionTimer = setInterval(() => {
      if (!this.authed) return;
      authenticateAccessToken(deps.app.db, deps.secret, this.token).catch(() => this.refuse(401, SIGNED_OUT));
    }, deps.sessionCheckMs);
    this.sessionTimer.unref?.();
    socket.on('message', (raw, isBinary) => this.receive(raw, isBinary));
    socket.on('close', () => this.cleanup());
    socket.on('error', () => this.cleanup());
  }

  user(): AuthUser | null {
    return this.authed;
  }

  signedOut(): void {
    this.refuse(401, SIGNED_OUT);
  }

  private send(message: StreamServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.socket.send(JSON.stringify(message));
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.deps.ended();
    clearTimeout(this.authTimer);
    clearInterval(this.sessionTimer);
    for (const id of this.keys) this.deps.hub.unsubscribe(id, this.sub);
    this.keys.clear();
  }

  private refuse(status: number, message: string): void {
    this.send({ type: 'error', message });
    this.cleanup();
    this.socket.close(4000 + status, message.slice(0, 120));
  }

  private receive(raw: WebSocket.RawData, isBinary: boolean): void {
    const cap = this.authed ? STREAM_MAX_MESSAGE_BYTES.afterAuth : STREAM_MAX_MESSAGE_BYTES.beforeAuth;
    if (byteLength(raw) > cap) {
      this.cleanup();
      this.socket.close(MESSAGE_TOO_BIG, `Message too big: at most ${cap / 1024} KB ${this.authed ? 'per message' : 'before auth'}`);
      return;
    }
    let parsed;
    try {
      parsed = streamClientMessageSchema.safeParse(JSON.parse(isBinary ? '' : raw.toString()));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      this.send({ type: 'error', message: 'Invalid message: send {"op":"auth","accessToken"} then {"op":"subscribe","apiKeyId","keyPassword"}' });
      return;
    }
    const message = parsed.data;
    if (message.op === 'ping') return this.send({ type: 'pong' });
    if (message.op === 'auth') return this.auth(message.accessToken);
    if (!this.authed && this.authPending) {
      void this.authPending.then(() => this.receive(raw, isBinary));
      return;
    }
    const me = this.authed;
    if (!me) return this.refuse(401, AUTH_REQUIRED);
    if (message.op === 'unsubscribe') {
      this.keys.delete(message.apiKeyId);
      this.deps.hub.unsubscribe(message.apiKeyId, this.sub);
      return;
    }
    if (!this.keys.has(message.apiKeyId)) void this.subscribe(me, message);
  }

  private auth(accessToken: string): void {
    const check = authenticateAccessToken(this.deps.app.db, this.deps.secret, accessToken).then(
      (u) => {
        if (this.authed && u.id !== this.authed.id) return this.refuse(403, 'A stream belongs to one user');
        this.authed = u;
        this.token = accessToken;
        clearTimeout(this.authTimer);
        this.send({ type: 'authenticated' });
      },
      (err: unknown) => this.refuse(401, err instanceof HttpError ? err.message : AUTH_REQUIRED),
    );
    if (!this.authed) this.authPending = check.finally(() => (this.authPending = null));
  }

  private async subscribe(me: AuthUser, message: SubscribeMessage): Promise<void> {
    const { app, hub } = this.deps;
    try {
      const key = await getApiKey(app.db, me.id, message.apiKeyId);
      const unlock = { limiter: app.keyPasswordLimiter, unlocks: app.unlockCache };
      const creds = await openUnlocked(unlock, { sessionId: me.familyId, userId: me.id }, key, message.keyPassword);
      if (this.closed) return;
      this.keys.add(key.id);
      await hub.subscribe(key, creds, this.sub);
    } catch (err) {
      this.keys.delete(message.apiKeyId);
      this.send({ type: 'error', apiKeyId: message.apiKeyId, message: err instanceof HttpError ? err.message : 'Could not open the account stream' });
      if (!(err instanceof HttpError)) app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'trade stream: subscribe failed');
    }
  }
}
