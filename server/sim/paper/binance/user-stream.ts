import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { queryOf, sendJson } from '../../context';
import type { SimConnection } from '../../hub';
import { header, isSimKey } from '../../private/credentials';
import { accountId, type AccountKey } from '../engine';
import { openPrivateSocket } from '../private-socket';
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

/** The venue's listen keys (in memory), by key and by account; an expired one is told so, then forgotten. */
class ListenKeys {
  private readonly byKey = new Map<string, ListenKey>();
  private readonly byAccount = new Map<string, ListenKey>();

  constructor(private readonly hub: VenueContext['hub']) {}

  get(key: string): ListenKey | undefined {
    return this.byKey.get(key);
  }

  of(account: AccountKey): ListenKey | undefined {
    return this.byAccount.get(accountId(account));
  }

  /** The account's key, created when it has none, valid for another hour from `now`. */
  extend(account: AccountKey, now: number): ListenKey {
    let lk = this.of(account);
    if (!lk) {
      lk = { key: randomBytes(48).toString('base64url').slice(0, 64), account, expiresAt: 0, conns: new Set() };
      this.byKey.set(lk.key, lk);
      this.byAccount.set(accountId(account), lk);
    }
    lk.expiresAt = now + LISTEN_KEY_TTL_MS;
    return lk;
  }

  delete(lk: ListenKey): void {
    this.byKey.delete(lk.key);
    if (this.of(lk.account) === lk) this.byAccount.delete(accountId(lk.account));
  }

  /** Expires the keys past their time: their sockets get `listenKeyExpired`, then nothing. */
  sweep(now: number): void {
    for (const lk of [...this.byKey.values()]) {
      if (lk.expiresAt > now) continue;
      this.delete(lk);
      for (const c of lk.conns) {
        c.queue.push({ e: 'listenKeyExpired', E: now, listenKey: lk.key });
        this.hub.pollNow(c.conn);
      }
      lk.conns.clear();
    }
  }
}

/** USER_STREAM security: the API key header only (-2014 without, -2015 for a key that is not a sim key). */
function keyOf(venue: VenueContext, headers: Record<string, string | string[] | undefined>, reply: FastifyReply): AccountKey | null {
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
}

/** `POST` (create or extend), `PUT` (keepalive), `DELETE` (close its sockets) `/fapi/v1/listenKey`. */
function registerListenKeyRoutes(app: FastifyInstance, venue: VenueContext, keys: ListenKeys): void {
  const { runtime } = venue;
  app.post('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(venue, req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    keys.sweep(now);
    // An account with an active key gets the same key back, extended.
    return sendJson(reply, 200, { listenKey: keys.extend(account, now).key });
  });

  app.put('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(venue, req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    keys.sweep(now);
    if (!keys.of(account)) return sendJson(reply, 400, { code: -1125, msg: 'This listenKey does not exist.' });
    return sendJson(reply, 200, { listenKey: keys.extend(account, now).key });
  });

  app.delete('/fapi/v1/listenKey', async (req, reply) => {
    const account = keyOf(venue, req.headers, reply);
    if (!account) return reply;
    const lk = keys.of(account);
    if (lk) {
      keys.delete(lk);
      for (const c of lk.conns) c.conn.socket.close(1000, 'listenKey deleted');
    }
    return sendJson(reply, 200, {});
  });
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
  const keys = new ListenKeys(hub);
  const sweep = (now: number) => keys.sweep(now);

  const unsubscribe = runtime.subscribe((account, events) => {
    const lk = keys.of(account);
    if (!lk || lk.account.network !== venue.network || lk.conns.size === 0) return;
    const frames = binanceFrames(events, (s) => runtime.engine.instrument(s));
    for (const c of lk.conns) {
      for (const f of frames) if (!c.events || c.events.has(f.e)) c.queue.push(f);
      hub.pollNow(c.conn);
    }
  });
  app.addHook('onClose', async () => unsubscribe());
  registerListenKeyRoutes(app, venue, keys);

  const open = (socket: WebSocket, key: string | undefined, events: string | undefined) => {
    sweep(runtime.now());
    const lk = key ? keys.get(key) : undefined;
    if (!lk) {
      // Binance closes a connection whose listenKey does not exist.
      socket.close(1008, 'Invalid listenKey');
      return;
    }
    openPrivateSocket(venue, 'binance', socket, (conn): UserConnection => ({ conn, queue: [], events: events ? new Set(events.split('/').filter(Boolean)) : null }), lk.conns, sweep);
  };

  app.get<{ Params: { listenKey: string } }>('/private/ws/:listenKey', { websocket: true }, (socket, req) => open(socket, req.params.listenKey, queryOf(req).events));
  app.get('/private/ws', { websocket: true }, (socket, req) => {
    const q = queryOf(req);
    open(socket, q.listenKey, q.events);
  });
}
