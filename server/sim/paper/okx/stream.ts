import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { SimConnection } from '../../hub';
import { hmacBase64, sameSignature, simAccountId } from '../../private/credentials';
import { withSimSecret } from '../../private/keyring';
import { accountId, fixed, type AccountKey, type EngineEvent, type PaperEngine } from '../engine';
import { openPrivateSocket } from '../private-socket';
import type { VenueContext } from '../venue';
import { setOkxBusinessPrivate } from '../../okx/ws';
import { OKX_INSTRUMENTS } from './economics';
import { algoJson, balanceJson, orderJson, positionJson } from './format';
import { networkOf } from './params';

const CHANNELS = ['orders', 'positions', 'account'] as const;
type Channel = (typeof CHANNELS)[number];

interface Sub {
  channel: Channel;
  arg: Record<string, string>;
}

interface PrivateConnection {
  conn: SimConnection;
  network: 'MAINNET' | 'TESTNET';
  account: AccountKey | null;
  subs: Sub[];
  queue: unknown[];
}

/** The account's `positions` (non-zero) and `account` rows now: what a subscription gets first. */
function snapshotOf(engine: PaperEngine, id: string, at: number): Record<Channel, unknown[]> {
  if (!engine.has(id)) return { orders: [], positions: [], account: [] };
  const positions = engine
    .positions(id)
    .filter((p) => fixed(p.size) !== 0n)
    .flatMap((p) => {
      const spec = engine.instrument(p.symbol);
      return spec ? [positionJson(spec, p, engine.lastPrice(p.symbol, at) ?? p.markPrice)] : [];
    });
  const account = [balanceJson(engine.balances(id).filter((b) => fixed(b.wallet) !== 0n), (c) => OKX_INSTRUMENTS.usdPrice(engine, c, at), at)];
  return { orders: [], positions, account };
}

/** A push's `arg`: the subscription's, plus the account's `uid` (as OKX's private pushes carry it). */
const pushArg = (venue: VenueContext, account: AccountKey, arg: Record<string, string>) => ({ ...arg, uid: String(simAccountId(venue.seed, account.apiKey)) });

/** The request's `id`, echoed in its answers (login, subscribe, unsubscribe, error). */
const idOf = (msg: { id?: unknown }) => (typeof msg.id === 'string' ? { id: msg.id } : {});

/** Engine events → pushes per channel (`orders` carries fill fields on a fill; positions and account snapshots). */
function pushesFor(engine: PaperEngine, id: string, events: EngineEvent[]): Record<Channel, unknown[]> {
  const out: Record<Channel, unknown[]> = { orders: [], positions: [], account: [] };
  let account = false;
  for (const ev of events) {
    if (ev.type === 'account') {
      if (ev.reason === 'reset') continue;
      for (const p of ev.positions) {
        const spec = engine.instrument(p.symbol);
        if (spec) out.positions.push(positionJson(spec, p, engine.lastPrice(p.symbol, ev.time) ?? p.markPrice));
      }
      account = true;
      continue;
    }
    const spec = engine.instrument(ev.order.symbol);
    // A waiting algo is not an order: it reaches `orders` once it fires.
    if (!spec || (ev.order.trigger !== null && ev.order.triggeredAt === null)) continue;
    out.orders.push(orderJson(spec, ev.order, { fill: ev.fill, tdMode: ev.order.meta.tdMode }));
  }
  if (account && engine.has(id)) {
    const at = events[events.length - 1]?.time ?? 0;
    out.account.push(balanceJson(engine.balances(id).filter((b) => fixed(b.wallet) !== 0n), (c) => OKX_INSTRUMENTS.usdPrice(engine, c, at), at));
  }
  return out;
}

/** Runs `then` once the login frame's key was looked up (at once when this instance holds it). */
const loggingIn = (venue: VenueContext, a: unknown, then: () => void) => withSimSecret(venue.keys, String((a as Record<string, unknown> | undefined)?.apiKey ?? ''), then);

/** The `login` op's check (okx.md §2): Base64 HMAC(timestamp-in-seconds + "GET/users/self/verify"), valid 30 s. */
function verifyLogin(venue: VenueContext, a: unknown): { ok: true; apiKey: string } | { ok: false; code: string; msg: string } {
  const { apiKey, passphrase, timestamp, sign } = (a ?? {}) as Record<string, unknown>;
  if (typeof apiKey !== 'string' || typeof timestamp !== 'string' || typeof sign !== 'string' || !/^\d{10}$/.test(timestamp)) return { ok: false, code: '60009', msg: 'Login failed.' };
  if (Math.abs(venue.runtime.now() / 1000 - Number(timestamp)) > 30) return { ok: false, code: '60006', msg: 'Timestamp request expired.' };
  // The key ring's cache: callers look the key up first (`loggingIn`).
  const known = venue.keys.cached(apiKey);
  if (!known || !sameSignature(known.passphrase, String(passphrase ?? '')) || !sameSignature(hmacBase64(known.secret, `${timestamp}GET/users/self/verify`), sign)) {
    return { ok: false, code: '60009', msg: 'Login failed.' };
  }
  return { ok: true, apiKey };
}

/**
 * `orders-algo` on the `/business` socket (okx.md §2): after `login`, every change of the account's
 * algo orders (placed, triggered, cancelled) in the `order-algo` shape.
 */
function registerAlgoChannel(venue: VenueContext): () => void {
  const { runtime, hub } = venue;
  const engine = runtime.engine;
  const states = new Map<SimConnection, { account: AccountKey | null; subs: Array<Record<string, string>>; queue: unknown[] }>();
  const unsubscribe = runtime.subscribe((account, events) => {
    const id = accountId(account);
    for (const [conn, st] of states) {
      if (!st.account || accountId(st.account) !== id || !st.subs.length) continue;
      const rows = events.flatMap((ev) => {
        if (ev.type !== 'order' || ev.order.trigger === null) return [];
        const spec = engine.instrument(ev.order.symbol);
        return spec ? [algoJson(spec, ev.order, engine.lastPrice(ev.order.symbol, ev.time))] : [];
      });
      for (const arg of st.subs) {
        const data = rows.filter((r) => arg.instId === undefined || r.instId === arg.instId);
        if (data.length) st.queue.push({ arg: pushArg(venue, account, arg), data });
      }
      hub.pollNow(conn);
    }
  });
  setOkxBusinessPrivate(hub, venue.network, {
    handle(conn, req, { connId }) {
      const args = Array.isArray(req.args) ? (req.args as Array<Record<string, unknown>>) : [];
      let st = states.get(conn);
      const state = () => {
        if (!st) {
          st = { account: null, subs: [], queue: [] };
          states.set(conn, st);
          const s = st;
          conn.subs.set('orders-algo', { poll: () => s.queue.splice(0) });
          conn.socket.on('close', () => states.delete(conn));
        }
        return st;
      };
      const id = idOf(req);
      if (req.op === 'login') {
        loggingIn(venue, args[0], () => {
          const r = verifyLogin(venue, args[0]);
          if (!r.ok) conn.send({ ...id, event: 'error', code: r.code, msg: r.msg, connId });
          else {
            state().account = { apiKey: r.apiKey, exchange: 'okx', network: venue.network };
            conn.send({ ...id, event: 'login', code: '0', msg: '', connId });
          }
        });
        return [];
      }
      if (req.op !== 'subscribe' && req.op !== 'unsubscribe') return null;
      const mine = args.filter((a) => a?.channel === 'orders-algo');
      if (!mine.length) return null;
      for (const a of mine) {
        const arg: Record<string, string> = { channel: 'orders-algo' };
        for (const k of ['instType', 'instId']) if (typeof a[k] === 'string') arg[k] = a[k] as string;
        const s = state();
        if (!s.account) {
          conn.send({ ...id, event: 'error', code: '60011', msg: 'Please log in.', connId });
          continue;
        }
        if (req.op === 'subscribe') s.subs.push(arg);
        else s.subs = s.subs.filter((x) => JSON.stringify(x) !== JSON.stringify(arg));
        conn.send({ ...id, event: req.op, arg, connId });
      }
      return args.filter((a) => a?.channel !== 'orders-algo');
    },
  });
  return unsubscribe;
}

/**
 * OKX's private WebSocket `/ws/v5/private` (okx.md §2): `login` with Base64 HMAC(timestamp-in-seconds
 * + "GET/users/self/verify"), valid 30 s; channels `orders` (instType SWAP / ANY, optional instId),
 * `positions`, `account`; raw `ping` → `pong`. Demo (TESTNET) is `/sim/testnet/okx`, or the header
 * `x-simulated-trading: 1` on the upgrade (the demo host wspap.okx.com in real life).
 */
export function registerOkxPrivateStream(app: FastifyInstance, venue: VenueContext): void {
  const { runtime, hub } = venue;
  const engine = runtime.engine;
  const conns = new Set<PrivateConnection>();

  const unsubscribe = runtime.subscribe((account, events) => {
    const id = accountId(account);
    const targets = [...conns].filter((c) => c.account && accountId(c.account) === id && c.subs.length);
    if (!targets.length) return;
    const pushes = pushesFor(engine, id, events);
    for (const c of targets) {
      for (const sub of c.subs) {
        const data = (pushes[sub.channel] as Array<Record<string, unknown>>).filter((d) => sub.arg.instId === undefined || d.instId === undefined || d.instId === sub.arg.instId);
        if (data.length) c.queue.push({ arg: pushArg(venue, account, sub.arg), data });
      }
      hub.pollNow(c.conn);
    }
  });
  const stopAlgo = registerAlgoChannel(venue);
  // `positions` and `account` start with a snapshot (positions: possibly empty), then push on change.
  const sendSnapshot = (pc: PrivateConnection, channel: Channel, arg: Record<string, string>) => {
    const account = pc.account;
    if (!account) return;
    runtime
      .run(account, (id, at) => snapshotOf(engine, id, at)[channel] as Array<Record<string, unknown>>)
      .then((rows) => {
        const data = rows.filter((d) => arg.instId === undefined || d.instId === undefined || d.instId === arg.instId);
        if (channel === 'account' && !data.length) return;
        pc.queue.push({ arg: pushArg(venue, account, arg), data });
        hub.pollNow(pc.conn);
      })
      .catch(() => undefined);
  };
  app.addHook('onClose', async () => {
    unsubscribe();
    stopAlgo();
  });

  app.get('/ws/v5/private', { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    const connId = randomBytes(4).toString('hex');
    const network = networkOf(venue, req);
    const pc = openPrivateSocket(venue, 'okx', socket, (conn): PrivateConnection => ({ conn, network, account: null, subs: [], queue: [] }), conns);
    if (!pc) return;
    const { conn } = pc;
    let id: { id?: string } = {};
    const error = (code: string, msg: string) => conn.send({ ...id, event: 'error', code, msg, connId });
    socket.on('message', (raw) => {
      const text = raw.toString();
      if (text === 'ping') return conn.send('pong');
      let msg: { op?: unknown; args?: unknown; id?: unknown };
      try {
        msg = JSON.parse(text) as typeof msg;
      } catch {
        return error('60012', `Invalid request: ${text.slice(0, 100)}`);
      }
      const args = Array.isArray(msg.args) ? (msg.args as Array<Record<string, unknown>>) : [];
      id = idOf(msg);
      const reqId = id;
      if (msg.op === 'login') {
        return loggingIn(venue, args[0], () => {
          const r = verifyLogin(venue, args[0]);
          if (!r.ok) return conn.send({ ...reqId, event: 'error', code: r.code, msg: r.msg, connId });
          pc.account = { apiKey: r.apiKey, exchange: 'okx', network: pc.network };
          return conn.send({ ...reqId, event: 'login', code: '0', msg: '', connId });
        });
      }
      if (msg.op === 'subscribe' || msg.op === 'unsubscribe') {
        if (!pc.account) return error('60011', 'Please log in.');
        for (const a of args) {
          const channel = a.channel;
          if (typeof channel !== 'string' || !(CHANNELS as readonly string[]).includes(channel)) return error('60018', `Wrong URL or channel:${String(channel)}, instId or instType error.`);
          const arg: Record<string, string> = { channel };
          for (const k of ['instType', 'instId', 'ccy']) if (typeof a[k] === 'string') arg[k] = a[k] as string;
          if (msg.op === 'subscribe') {
            pc.subs.push({ channel: channel as Channel, arg });
            conn.send({ ...id, event: 'subscribe', arg, connId });
            if (channel !== 'orders') sendSnapshot(pc, channel as Channel, arg);
          } else {
            pc.subs = pc.subs.filter((s) => JSON.stringify(s.arg) !== JSON.stringify(arg));
            conn.send({ ...id, event: 'unsubscribe', arg, connId });
          }
        }
        return;
      }
      return error('60012', `Invalid request: ${text.slice(0, 100)}`);
    });
  });
}
