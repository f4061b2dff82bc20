import type { FastifyPluginAsync } from 'fastify';
import type WebSocket from 'ws';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import { streamClientMessageSchema, type StreamServerMessage } from '../../../src/api/contracts/trading';
import { HttpError } from '../../lib/http-error';
import { AUTH_REQUIRED, authenticateAccessToken, type AuthUser } from '../../plugins/authenticate';
import { getApiKey, openApiKey } from '../../services/api-keys';
import type { StreamSubscriber } from '../../services/trading/account-stream';
import type { TradeStreamHub } from '../../services/trading/stream-hub';

const AUTH_TIMEOUT_MS = 10_000;
/** How often a connection checks that its session still stands (sign-out, password change). */
const SESSION_CHECK_MS = 15_000;
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

const STREAM_DESCRIPTION = [
  'WebSocket (DESIGN §3.3). Send `{"op":"auth","accessToken"}` within 10 s (again with a fresh token before it expires),',
  'then `{"op":"subscribe","apiKeyId","keyPassword"}` per key. The server answers `status` (connecting, connected, reconnecting,',
  'error with its reason), a `snapshot` of open orders, positions and balance after every (re)connect and account change,',
  'and `order` / `fill` events as they happen. One exchange connection per key is shared by all tabs. Closed with 4401 when',
  'the session ends (sign-out), and the key`s subscription ends with an `error` status when the key is deleted.',
  'A message above 4 KB before auth, or 64 KB after, closes the stream with 1009 (message too big).',
].join(' ');

export interface TradeStreamOptions {
  hub: TradeStreamHub;
  /** Tests: how often the session is re-checked. */
  sessionCheckMs?: number;
}

/** `/v1/trade/stream`: the live account stream (DESIGN §3.3). */
export const tradeStreamRoutes: FastifyPluginAsync<TradeStreamOptions> = async (app, opts) => {
  const secret = app.config.JWT_SECRET ?? '';
  // A sign-out or a password change on any instance closes that session's streams here at once
  // (the periodic session check stays as the backstop for a missed event).
  const live = new Set<{ user: () => AuthUser | null; signedOut: () => void }>();
  app.events.on('session.ended', ({ familyId }) => {
    for (const c of live) if (c.user()?.familyId === familyId) c.signedOut();
  });
  app.events.on('user.sessions-ended', ({ userId, keepFamilyId }) => {
    for (const c of live) {
      const u = c.user();
      if (u?.id === userId && u.familyId !== keepFamilyId) c.signedOut();
    }
  });
  app.route({
    method: 'GET',
    url: '/stream',
    schema: { tags: ['trade'], summary: 'Live account stream (WebSocket: upgrade required)', description: STREAM_DESCRIPTION, response: { 426: errorResponseSchema } },
    handler: async (_req, reply) => reply.code(426).header('upgrade', 'websocket').send({ message: 'Upgrade required: /v1/trade/stream is a WebSocket' }),
    wsHandler: (socket: WebSocket) => {
      let user: AuthUser | null = null;
      let token = '';
      /** The first `auth` while it is being checked: a `subscribe` sent right behind it waits for it. */
      let authPending: Promise<void> | null = null;
      let closed = false;
      const keys = new Set<string>();

      const sub: StreamSubscriber = {
        send(message: StreamServerMessage) {
          if (closed || socket.readyState !== socket.OPEN) return;
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            socket.terminate();
            return;
          }
          socket.send(JSON.stringify(message));
        },
        ended(apiKeyId) {
          keys.delete(apiKeyId);
        },
      };
      const entry = { user: () => user, signedOut: () => refuse(401, SIGNED_OUT) };
      live.add(entry);
      const cleanup = () => {
        if (closed) return;
        closed = true;
        live.delete(entry);
        clearTimeout(authTimer);
        clearInterval(sessionTimer);
        for (const id of keys) opts.hub.unsubscribe(id, sub);
        keys.clear();
      };
      const refuse = (status: number, message: string) => {
        sub.send({ type: 'error', message });
        cleanup();
        socket.close(4000 + status, message.slice(0, 120));
      };
      const authTimer = setTimeout(() => refuse(401, AUTH_REQUIRED), AUTH_TIMEOUT_MS);
      // Sign-out revokes the session: the next check closes the stream (and its exchange connections).
      const sessionTimer = setInterval(() => {
        if (!user) return;
        authenticateAccessToken(app.db, secret, token).catch(() => refuse(401, SIGNED_OUT));
      }, opts.sessionCheckMs ?? SESSION_CHECK_MS);
      sessionTimer.unref?.();

      socket.on('message', (raw, isBinary) => {
        const cap = user ? STREAM_MAX_MESSAGE_BYTES.afterAuth : STREAM_MAX_MESSAGE_BYTES.beforeAuth;
        if (byteLength(raw) > cap) {
          cleanup();
          socket.close(MESSAGE_TOO_BIG, `Message too big: at most ${cap / 1024} KB ${user ? 'per message' : 'before auth'}`);
          return;
        }
        let parsed;
        try {
          parsed = streamClientMessageSchema.safeParse(JSON.parse(isBinary ? '' : raw.toString()));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) {
          sub.send({ type: 'error', message: 'Invalid message: send {"op":"auth","accessToken"} then {"op":"subscribe","apiKeyId","keyPassword"}' });
          return;
        }
        const message = parsed.data;
        if (message.op === 'ping') return sub.send({ type: 'pong' });
        if (message.op === 'auth') {
          const check = authenticateAccessToken(app.db, secret, message.accessToken).then(
            (u) => {
              if (user && u.id !== user.id) return refuse(403, 'A stream belongs to one user');
              user = u;
              token = message.accessToken;
              clearTimeout(authTimer);
              sub.send({ type: 'authenticated' });
            },
            (err: unknown) => refuse(401, err instanceof HttpError ? err.message : AUTH_REQUIRED),
          );
          if (!user) authPending = check.finally(() => (authPending = null));
          return;
        }
        if (!user && authPending) {
          const waiting = authPending;
          void waiting.then(() => socket.emit('message', raw, isBinary));
          return;
        }
        const me = user;
        if (!me) return refuse(401, AUTH_REQUIRED);
        if (message.op === 'unsubscribe') {
          keys.delete(message.apiKeyId);
          opts.hub.unsubscribe(message.apiKeyId, sub);
          return;
        }
        if (keys.has(message.apiKeyId)) return;
        void (async () => {
          try {
            const key = await getApiKey(app.db, me.id, message.apiKeyId);
            const creds = await openApiKey(app.keyPasswordLimiter, key, message.keyPassword);
            if (closed) return;
            keys.add(key.id);
            await opts.hub.subscribe(key, creds, sub);
          } catch (err) {
            keys.delete(message.apiKeyId);
            sub.send({ type: 'error', apiKeyId: message.apiKeyId, message: err instanceof HttpError ? err.message : 'Could not open the account stream' });
            if (!(err instanceof HttpError)) app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'trade stream: subscribe failed');
          }
        })();
      });
      socket.on('close', cleanup);
      socket.on('error', cleanup);
    },
  });
};
