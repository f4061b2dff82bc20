import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { queryOf, sendJson } from '../../context';
import type { SimConnection } from '../../hub';
import { header } from '../../private/credentials';
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
  /** Combined-stream mode (`/private/stream`): each frame goes out as `{ stream: <listenKey>, data }`. */
  combined: boolean;
  /** The listen keys this socket is subscribed to (one in the URL; more by SUBSCRIBE). */
  keys: Set<ListenKey>;
}

/** Queues a frame of `lk` on a socket, wrapped as a combined-stream frame where the socket is one. */
function deliver(c: UserConnection, lk: ListenKey, frame: unknown): void {
  c.queue.push(c.combined ? { stream: lk.key, data: frame } : frame);
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
        deliver(c, lk, { e: 'listenKeyExpired', E: now, listenKey: lk.key });
        c.keys.delete(lk);
        this.hub.pollNow(c.conn);
      }
      lk.conns.clear();
    }
  }
}

/** USER_STREAM security: the API key header only (-2014 without, -2015 for a key the simulator did not mint). */
async function keyOf(venue: VenueContext, headers: Record<string, string | string[] | undefined>, reply: FastifyReply): Promise<AccountKey | null> {
  const apiKey = header(headers, 'x-mbx-apikey');
  if (!apiKey) {
    void sendJson(reply, 401, { code: -2014, msg: 'API-key format invalid.' });
    return null;
  }
  if (!(await venue.keys.secretOf(apiKey))) {
    void sendJson(reply, 401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    return null;
  }
  return { apiKey, exchange: 'binance', network: venue.network };
}

/** `POST` (create or extend), `PUT` (keepalive), `DELETE` (close its sockets) `/fapi/v1/listenKey`. */
function registerListenKeyRoutes(app: FastifyInstance, venue: VenueContext, keys: ListenKeys): void {
  const { runtime } = venue;
  app.post('/fapi/v1/listenKey', async (req, reply) => {
    const account = await keyOf(venue, req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    keys.sweep(now);
    // An account with an active key gets the same key back, extended.
    return sendJson(reply, 200, { listenKey: keys.extend(account, now).key });
  });

  app.put('/fapi/v1/listenKey', async (req, reply) => {
    const account = await keyOf(venue, req.headers, reply);
    if (!account) return reply;
    const now = runtime.now();
    keys.sweep(now);
    if (!keys.of(account)) return sendJson(reply, 400, { code: -1125, msg: 'This listenKey does not exist.' });
    return sendJson(reply, 200, { listenKey: keys.extend(account, now).key });
  });

  app.delete('/fapi/v1/listenKey', async (req, reply) => {
    const account = await keyOf(venue, req.headers, reply);
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
 * and the routed WebSocket `/private/ws/<listenKey>` or `/private/ws?listenKey=<k>&events=A/B` (raw frames),
 * `/private/stream?listenKey=<k>` or `/private/stream?streams=<k>` + SUBSCRIBE `[<k>]` (combined frames).
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
      for (const f of frames) if (!c.events || c.events.has(f.e)) deliver(c, lk, f);
      hub.pollNow(c.conn);
    }
  });
  app.addHook('onClose', async () => unsubscribe());
  registerListenKeyRoutes(app, venue, keys);

  const sockets = new Set<UserConnection>();
  const subscribe = (c: UserConnection, key: string): boolean => {
    const lk = keys.get(key);
    if (!lk) return false;
    c.keys.add(lk);
    lk.conns.add(c);
    return true;
  };
  /**
   * A user-data socket: raw (`/private/ws…`, frames as they are) or combined (`/private/stream…`,
   * frames as `{ stream: <listenKey>, data }`). `initial` are the listen keys of its URL; a raw socket
   * needs a valid one (Binance closes it otherwise), a combined one may start empty and SUBSCRIBE.
   */
  const open = (socket: WebSocket, initial: string[], opts: { combined: boolean; events?: string; required: boolean }) => {
    sweep(runtime.now());
    const valid = initial.filter((k) => keys.get(k));
    if (opts.required && valid.length === 0) {
      // Binance closes a connection whose listenKey does not exist.
      socket.close(1008, 'Invalid listenKey');
      return;
    }
    const events = opts.events ? new Set(opts.events.split('/').filter(Boolean)) : null;
    const c = openPrivateSocket(venue, 'binance', socket, (conn): UserConnection => ({ conn, queue: [], events, combined: opts.combined, keys: new Set() }), sockets, sweep);
    if (!c) return;
    for (const k of valid) subscribe(c, k);
    socket.on('close', () => {
      for (const lk of c.keys) lk.conns.delete(c);
      c.keys.clear();
    });
    socket.on('message', (raw, isBinary) => onRequest(c, isBinary ? '' : String(raw)));
  };

  /** SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS with listen keys as the stream names (as the market streams). */
  const onRequest = (c: UserConnection, text: string) => {
    let req: { method?: unknown; params?: unknown; id?: unknown };
    try {
      req = JSON.parse(text) as typeof req;
    } catch {
      c.conn.send({ error: { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' }, id: null });
      return;
    }
    const id = typeof req.id === 'number' || typeof req.id === 'string' ? req.id : null;
    const names = (Array.isArray(req.params) ? req.params : []).filter((p): p is string => typeof p === 'string');
    switch (req.method) {
      case 'SUBSCRIBE':
        sweep(runtime.now());
        // A listen key that does not exist is accepted and stays silent (as an unknown market stream).
        for (const n of names) subscribe(c, n);
        c.conn.send({ result: null, id });
        return;
      case 'UNSUBSCRIBE':
        for (const lk of [...c.keys]) {
          if (!names.includes(lk.key)) continue;
          c.keys.delete(lk);
          lk.conns.delete(c);
        }
        c.conn.send({ result: null, id });
        return;
      case 'LIST_SUBSCRIPTIONS':
        c.conn.send({ result: [...c.keys].map((lk) => lk.key), id });
        return;
      default:
        c.conn.send({ error: { code: 2, msg: `Invalid request: unknown variant \`${String(req.method)}\`` }, id });
    }
  };

  app.get<{ Params: { listenKey: string } }>('/private/ws/:listenKey', { websocket: true }, (socket, req) =>
    open(socket, [req.params.listenKey], { combined: false, events: queryOf(req).events, required: true }),
  );
  app.get('/private/ws', { websocket: true }, (socket, req) => {
    const q = queryOf(req);
    open(socket, q.listenKey ? [q.listenKey] : [], { combined: false, events: q.events, required: true });
  });
  // Combined form: `/private/stream?listenKey=<k>` (the `binance` npm client) or
  // `/private/stream?streams=<k1>/<k2>` and SUBSCRIBE `["<k>"]` (Binance's official connector).
  app.get('/private/stream', { websocket: true }, (socket, req) => {
    const q = queryOf(req);
    const initial = [...(q.listenKey ? [q.listenKey] : []), ...(q.streams ? q.streams.split('/').filter(Boolean) : [])];
    open(socket, initial, { combined: true, events: q.events, required: q.listenKey !== undefined });
  });
}
