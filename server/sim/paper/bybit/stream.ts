import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { SimConnection } from '../../hub';
import { hmacHex, sameSignature } from '../../private/credentials';
import { withSimSecret } from '../../private/keyring';
import { accountId, fixed, formatFixed, type AccountKey, type Category, type EngineEvent, type PaperEngine } from '../engine';
import { openPrivateSocket } from '../private-socket';
import type { VenueContext } from '../venue';
import { BYBIT_INSTRUMENTS } from './economics';
import { qtyOf, streamExecutionJson, streamOrderJson, streamPositionJson, walletJson } from './format';
import { tpslOf } from './tpsl';

export const PRIVATE_TOPICS = ['order', 'execution', 'position', 'wallet'] as const;
type Topic = (typeof PRIVATE_TOPICS)[number];

interface Item {
  topic: Topic;
  category: Category | null;
  data: unknown;
}

/**
 * Engine events → the items of Bybit's private topics (websocket/private/*.mdx): `order` for every
 * order change, `execution` for every fill (with `execPnl`, and `closedSize` from the position that
 * follows it), `position` for every position an event changed, one `wallet` snapshot per batch.
 */
export function bybitItems(engine: PaperEngine, id: string, account: AccountKey, events: EngineEvent[]): Item[] {
  const items: Item[] = [];
  let wallet = false;
  events.forEach((ev, i) => {
    if (ev.type === 'account') {
      if (ev.reason === 'reset') return;
      for (const p of ev.positions) {
        const spec = engine.instrument(p.symbol);
        if (!spec) continue;
        const mark = fixed(p.markPrice) !== 0n ? p.markPrice : (engine.lastPrice(p.symbol, ev.time) ?? p.markPrice);
        items.push({ topic: 'position', category: spec.category, data: streamPositionJson(spec, p, mark, tpslOf(engine, id, p.symbol)) });
      }
      wallet = true;
      return;
    }
    const spec = engine.instrument(ev.order.symbol);
    if (!spec) return;
    items.push({ topic: 'order', category: spec.category, data: streamOrderJson(spec, account, ev.order) });
    const f = ev.fill;
    if (ev.exec !== 'fill' || !f) return;
    // The size this fill closed: the position after it (in the account event that follows) minus the fill.
    let closedSize = '0';
    const next = events.slice(i + 1).find((e) => e.type === 'account' && e.positions.some((p) => p.symbol === f.symbol));
    const after = next?.type === 'account' ? next.positions.find((p) => p.symbol === f.symbol) : undefined;
    if (after) {
      const qty = fixed(f.qty);
      const before = fixed(after.size) - (f.side === 'BUY' ? qty : -qty);
      const closes = f.side === 'BUY' ? before < 0n : before > 0n;
      const abs = before < 0n ? -before : before;
      if (closes) closedSize = formatFixed(abs < qty ? abs : qty, 18);
    }
    const leaves = ev.order.status === 'NEW' || ev.order.status === 'PARTIALLY_FILLED' ? fixed(ev.order.qty) - fixed(ev.order.filledQty) : 0n;
    items.push({
      topic: 'execution',
      category: spec.category,
      data: streamExecutionJson(f, {
        spec,
        account,
        order: ev.order,
        leavesQty: qtyOf(spec, formatFixed(leaves, 18)),
        markPrice: engine.lastPrice(f.symbol, f.time) ?? f.price,
        closedSize: qtyOf(spec, closedSize),
      }),
    });
  });
  // "position … pushes on every order create, amend or cancel even if nothing changed" (bybit.md §6):
  // a symbol whose orders changed gets its position snapshot when no account event carried it.
  const pushed = new Set(items.filter((x) => x.topic === 'position').map((x) => (x.data as { symbol: string }).symbol));
  const touched = new Set(events.flatMap((ev) => (ev.type === 'order' && ev.exec !== 'fill' ? [ev.order.symbol] : [])));
  for (const symbol of touched) {
    const spec = engine.instrument(symbol);
    if (pushed.has(symbol) || !spec || !engine.has(id)) continue;
    const [p] = engine.positions(id, symbol);
    if (!p) continue;
    const at = events[events.length - 1]?.time ?? 0;
    const mark = fixed(p.markPrice) !== 0n ? p.markPrice : (engine.lastPrice(symbol, at) ?? p.markPrice);
    items.push({ topic: 'position', category: spec.category, data: streamPositionJson(spec, p, mark, tpslOf(engine, id, symbol)) });
  }
  if (wallet && engine.has(id)) {
    const at = events[events.length - 1]?.time ?? 0;
    const balances = engine
      .balances(id)
      .filter((b) => fixed(b.wallet) !== 0n || fixed(b.unrealisedPnl) !== 0n)
      .map((balance) => ({ balance, usd: BYBIT_INSTRUMENTS.usdPrice(engine, balance.currency, at) }));
    items.push({ topic: 'wallet', category: null, data: walletJson(balances, true) });
  }
  return items;
}

interface PrivateConnection {
  conn: SimConnection;
  connId: string;
  account: AccountKey | null;
  /** Subscribed topic names: `order` (all-in-one) or `order.linear` / `order.inverse` (categorised), … */
  topics: Set<string>;
  queue: unknown[];
}

interface Request {
  op?: unknown;
  args?: unknown;
  req_id?: unknown;
}

const ALL_TOPICS = new Set<string>([...PRIVATE_TOPICS, ...['order', 'execution', 'position'].flatMap((t) => [`${t}.linear`, `${t}.inverse`])]);

/** A message's answer: `{ success, ret_msg, op, conn_id, req_id? }`. */
type Answer = (op: string, success: boolean, retMsg?: string) => void;

/** `auth`: `[apiKey, expires (ms, in the future), hex HMAC(secret, "GET/realtime" + expires)]`. */
function auth(venue: VenueContext, pc: PrivateConnection, args: unknown[], answer: Answer): void {
  const [apiKey, expires, signature] = args;
  const exp = typeof expires === 'number' ? String(expires) : typeof expires === 'string' ? expires : '';
  if (typeof apiKey !== 'string' || typeof signature !== 'string' || !/^\d{1,16}$/.test(exp)) return answer('auth', false, 'Params Error');
  // An expiry in the past (the sign of a clock out of sync) is "Params Error" on Bybit too.
  if (Number(exp) <= venue.runtime.now()) return answer('auth', false, 'Params Error');
  return withSimSecret(venue.keys, apiKey, (known) => {
    if (!known || !sameSignature(hmacHex(known.secret, `GET/realtime${exp}`), signature)) return answer('auth', false, 'Request not authorized');
    const account: AccountKey = { apiKey, exchange: 'bybit', network: venue.network };
    if (pc.account && accountId(pc.account) !== accountId(account)) return answer('auth', false, 'Repeat auth with another key');
    pc.account = account;
    return answer('auth', true);
  });
}

/** `subscribe` / `unsubscribe` (after auth): all-in-one and categorised topics not in one request. */
function subscribe(pc: PrivateConnection, op: 'subscribe' | 'unsubscribe', args: unknown[], answer: Answer): void {
  const topics = args.filter((a): a is string => typeof a === 'string');
  if (!pc.account) return answer(op, false, 'Request not authorized');
  const bad = topics.find((t) => !ALL_TOPICS.has(t));
  if (bad !== undefined || topics.length === 0) return answer(op, false, `error:handler not found,topic:${bad ?? ''}`);
  for (const t of PRIVATE_TOPICS) {
    if (topics.includes(t) && topics.some((x) => x.startsWith(`${t}.`))) return answer(op, false, `error:all-in-one topic ${t} and its categorised topics cannot be in one request`);
  }
  for (const t of topics) {
    if (op === 'subscribe') pc.topics.add(t);
    else pc.topics.delete(t);
  }
  return answer(op, true);
}

function onMessage(venue: VenueContext, pc: PrivateConnection, raw: string): void {
  const { conn } = pc;
  let req: Request;
  try {
    req = JSON.parse(raw) as Request;
  } catch {
    return conn.send({ success: false, ret_msg: 'error:unmarshal error', conn_id: pc.connId, op: '' });
  }
  if (typeof req !== 'object' || req === null) return conn.send({ success: false, ret_msg: 'error:unmarshal error', conn_id: pc.connId, op: '' });
  const reqId = typeof req.req_id === 'string' ? req.req_id : '';
  const args = Array.isArray(req.args) ? (req.args as unknown[]) : [];
  const answer: Answer = (op, success, retMsg = '') => conn.send({ success, ret_msg: retMsg, op, conn_id: pc.connId, ...(reqId ? { req_id: reqId } : {}) });
  if (req.op === 'ping') return conn.send({ req_id: reqId, op: 'pong', args: [String(Date.now())], conn_id: pc.connId });
  if (req.op === 'auth') return auth(venue, pc, args, answer);
  if (req.op === 'subscribe' || req.op === 'unsubscribe') return subscribe(pc, req.op, args, answer);
  return answer(String(req.op ?? ''), false, `error:handler not found,op:${String(req.op)}`);
}

/**
 * Bybit's private WebSocket `/v5/private` (bybit.md §2, §5; websocket/wss-authentication.mdx):
 * `{"op":"auth","args":[apiKey, expires, signature]}` with signature = hex HMAC-SHA256(secret,
 * "GET/realtime" + expires) and expires (ms) in the future; `{"op":"ping"}` → `{"op":"pong"}`;
 * topics `order`, `execution`, `position` (also `.linear` / `.inverse`) and `wallet`. The account's
 * events reach it only after they were written (PaperRuntime), and only its own account's.
 */
export function registerBybitPrivateStream(app: FastifyInstance, venue: VenueContext): void {
  const { runtime, hub } = venue;
  const engine = runtime.engine;
  const conns = new Set<PrivateConnection>();

  const unsubscribe = runtime.subscribe((account, events) => {
    if (account.network !== venue.network) return;
    const id = accountId(account);
    const targets = [...conns].filter((c) => c.account && accountId(c.account) === id && c.topics.size > 0);
    if (targets.length === 0) return;
    const items = bybitItems(engine, id, account, events);
    if (items.length === 0) return;
    const creationTime = events[events.length - 1].time;
    for (const c of targets) {
      for (const topic of PRIVATE_TOPICS) {
        for (const name of [topic, `${topic}.linear`, `${topic}.inverse`]) {
          if (!c.topics.has(name)) continue;
          const category = name.includes('.') ? name.split('.')[1] : null;
          const data = items.filter((x) => x.topic === topic && (category === null || x.category === category)).map((x) => x.data);
          if (data.length) c.queue.push({ id: randomUUID(), topic: name, creationTime, data });
        }
      }
      hub.pollNow(c.conn);
    }
  });
  app.addHook('onClose', async () => unsubscribe());

  app.get('/v5/private', { websocket: true }, (socket: WebSocket) => {
    const pc = openPrivateSocket(venue, 'bybit', socket, (conn) => ({ conn, connId: `${randomUUID().slice(0, 20)}-${conns.size}`, account: null, topics: new Set<string>(), queue: [] }), conns);
    if (pc) socket.on('message', (raw) => onMessage(venue, pc, raw.toString()));
  });
}
