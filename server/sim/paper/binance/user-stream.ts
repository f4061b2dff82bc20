import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { queryOf, sendJson } from '../../context';
import { SimConnection } from '../../hub';
import { header, isSimKey } from '../../private/credentials';
import { accountId, type AccountKey } from '../engine';
import type { VenueContext } from '../venue';
import { binanceFrames } from './uds';

/** A listenKey is valid for 60 minutes after its creation or last keepalive (binance.md §6). */
export const LISTEN_KEY_TTL_MS = 60 * 60_000;

interface ListenKey {
  key: string;
  account: AccountKey;
  expiresAt: number;
  conns: Set<UserConnection>;
}

interface UserConnection {
  conn: SimConnection;
  queue: unknown[];
  events: Set<string> | null;
}

/**
 * Binance's user data stream: `POST|PUT|DELETE /fapi/v1/listenKey` (API key only, no signature)
 * and the routed WebSocket `/private/ws/<listenKey>` or `/private/ws?listenKey=<k>&events=A/B`.
 * The account's engine events reach its sockets only after they were written (PaperRuntime), so
 * a client never sees what a restart would undo. An expired key gets `listenKeyExpired`, then silence.
 * Listen keys live in memory: after a server restart clients create a new one (as after expiry).
 */
export function registerBinanceUserStream(app: FastifyInstance, venue: VenueContext): void {
  const { runtime, hub } = venue;
  const byKey = new Map<string, ListenKey>();
  const byAccount = new Map<string, ListenKey>();

  const expire = (lk: ListenKey, now: number) => {
    byKey.delete(lk.key);
    if (byAccount.get(accountId(lk.account)) === lk) byAccount.delete(accountId(lk.account));
    for (const c of lk.conns) {
      c.queue.push({ e: 'listenKeyExpired', E: now, listenKey: lk.key });
      hub.pollNow(c.conn);
    }
    lk.conns.clear();
  };
  const sweep = (now: number) => {
    for (const lk of [...byKey.values()]) if (lk.expiresAt <= now) expire(lk, now);
  };

  const unsubscribe = runtime.subscribe((account, events) => {
    const lk = byAccount.get(accountId(account));
    if (!lk || lk.account.network !== venue.network || lk.conns.size === 0) return;
    const frames = binanceFrames(events, (s) => runtime.engine.instrument(s));
    for (const c of lk.conns) {
      for (const f of frames) if (!c.events || c.events.has(f.e)) c.queue.push(f);
      hub.pollNow(c.conn);
    }
  });
  app.addHook('onClose', async () => unsubscribe());

  /** USER_STREAM security: the API key header only. */
  const keyOf = (headers: Record<string, string | string[] | undefined>, reply: FastifyReply): AccountKey | null => {
    const apiKey = header(headers, 'x-mbx-apikey');
    if (!apiKey) {
      void sendJson(reply, 401, { code: -2014, msg: 'API-key format invalid.' });
      return null;
    }
    if (!isSimKey(apiKey)) {
      void sendJson(reply, 401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
      return null;
    }
    return { apiKey, exchange: 'binance', network: venue.network };
  };

  app.post('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    sweep(now);
    // An account with an active key gets the same key back, extended.
    let lk = byAccount.get(accountId(account));
    if (!lk) {
      lk = { key: randomBytes(48).toString('base64url').slice(0, 64), account, expiresAt: 0, conns: new Set() };
      byKey.set(lk.key, lk);
      byAccount.set(accountId(account), lk);
    }
    lk.expiresAt = now + LISTEN_KEY_TTL_MS;
    return sendJson(reply, 200, { listenKey: lk.key });
  });

  app.put('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    sweep(now);
    const lk = byAccount.get(accountId(account));
    if (!lk) return sendJson(reply, 400, { code: -1125, msg: 'This listenKey does not exist.' });
    lk.expiresAt = now + LISTEN_KEY_TTL_MS;
    return sendJson(reply, 200, { listenKey: lk.key });
  });

  app.delete('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(req.headers, reply);
    if (!account) return reply;
    const lk = byAccount.get(accountId(account));
    if (lk) {
      byKey.delete(lk.key);
      byAccount.delete(accountId(account));
      for (const c of lk.conns) c.conn.socket.close(1000, 'listenKey deleted');
    }
    return sendJson(reply, 200, {});
  });

  const open = (socket: WebSocket, key: string | undefined, events: string | undefined) => {
    const now = runtime.now();
    sweep(now);
    const lk = key ? byKey.get(key) : undefined;
    if (!lk) {
      // Binance closes a connection whose listenKey does not exist.
      socket.close(1008, 'Invalid listenKey');
      return;
    }
    const conn = new SimConnection('binance', socket, (_t, f) => f, 'private');
    const uc: UserConnection = { conn, queue: [], events: events ? new Set(events.split('/').filter(Boolean)) : null };
    conn.subs.set('user', {
      poll(at) {
        sweep(at);
        return uc.queue.splice(0);
      },
    });
    lk.conns.add(uc);
    socket.on('close', () => lk.conns.delete(uc));
    hub.add(conn);
    // The fault hook "drop private sockets" keeps dropping new ones while it is set.
    if (venue.faults.get('binance').dropPrivateSockets) hub.drop('binance', 'private');
  };

  app.get<{ Params: { listenKey: string } }>('/private/ws/:listenKey', { websocket: true }, (socket, req) => open(socket, req.params.listenKey, queryOf(req).events));
  app.get('/private/ws', { websocket: true }, (socket, req) => {
    const q = queryOf(req);
    open(socket, q.listenKey, q.events);
  });
}
