import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error';
import { RetryLaterError } from '../lib/retry-later';
import { registerAuthentication } from '../plugins/authenticate';
import { registerCompression } from '../plugins/compress';
import { registerDatabaseGuard } from '../plugins/database';
import { registerErrorHandler } from '../plugins/errors';
import { registerInputGuard } from '../plugins/input-guard';
import { SessionCache } from '../plugins/session-cache';
import { registerSecurityHeaders } from '../plugins/web';
import { registerXsrf } from '../plugins/xsrf';
import { rateLimitStore } from '../services/rate-limit-store';

/** The largest WebSocket message any socket route takes (ws `maxPayload`). */
export const WEBSOCKET_MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * `http`: how every request is handled before a route sees it — the database bulkhead and outage
 * answers, the one error handler, the input guard, security headers, cookies, XSRF, the rate-limit
 * store, WebSockets — and `requireUser` / `requireRole` for the routes.
 */
export const httpPlugin = fp(
  async (app) => {
    const { config } = app;
    const secret = app.authContext.secret;
    registerDatabaseGuard(app);
    registerErrorHandler(app);
    // NUL, lone surrogates and over-deep JSON answer 400 before any route sees them.
    registerInputGuard(app);
    // JSON answers of 1 KB and more in br/gzip when the client accepts it (static files are precompressed).
    registerCompression(app);
    // Services' 429/503 (key passwords, busy scrypt) say when to come back, like the route limits do.
    app.addHook('onError', async (_req, reply, err) => {
      if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
    });
    await registerSecurityHeaders(app, { publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`, sentryDsn: config.SENTRY_DSN });
    await app.register(cookie);
    registerXsrf(app, secret);
    await app.register(rateLimit, {
      global: false,
      // Shared through Redis while it answers, per instance while it does not (services/rate-limit-store.ts).
      store: rateLimitStore(app.rateCounter),
      errorResponseBuilder: (_req, ctx) => new HttpError(ctx.statusCode, `Too many attempts: try again in ${ctx.after}`),
    });
    // Every socket route (the trade and scanner streams, the simulator's exchange sockets) gets small
    // JSON messages: ws refuses a larger frame with 1009 from its length header, before buffering it
    // (its default would take 100 MiB). The trade stream allows only 4 KB until it is authenticated.
    await app.register(websocket, { options: { maxPayload: WEBSOCKET_MAX_PAYLOAD_BYTES } });
    registerAuthentication(app, app.db, secret, new SessionCache({ ttlMs: config.AUTH_CHECK_HOLD_MS }));
    // A sign-in held by requireUser goes, on every instance, the moment it ends or its user changes.
    const sessions = app.sessionCache;
    app.events.on('session.ended', ({ familyId }) => sessions.dropSession(familyId));
    app.events.on('user.sessions-ended', ({ userId }) => sessions.dropUser(userId));
    app.events.on('user.changed', ({ userId }) => sessions.dropUser(userId));
    app.events.onResync(() => sessions.clear());
  },
  { name: 'http', dependencies: ['core', 'events'] },
);
