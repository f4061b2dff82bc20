import type { FastifyPluginAsync } from 'fastify';
import type WebSocket from 'ws';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import type { TradeStreamHub } from '../../services/trading/stream-hub';
import { TradeStreamConnection } from './trade-stream-connection';

export { STREAM_MAX_MESSAGE_BYTES } from './trade-stream-connection';

/** How often a connection checks that its session still stands (sign-out, password change). */
const SESSION_CHECK_MS = 15_000;

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
  const live = new Set<TradeStreamConnection>();
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
      const connection = new TradeStreamConnection(socket, {
        app,
        secret,
        hub: opts.hub,
        sessionCheckMs: opts.sessionCheckMs ?? SESSION_CHECK_MS,
        ended: () => live.delete(connection),
      });
      live.add(connection);
    },
  });
};
