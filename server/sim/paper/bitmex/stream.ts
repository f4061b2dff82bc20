import type { WebSocket } from 'ws';
import { setBitmexPrivateWs } from '../../bitmex/ws';
import { SimConnection } from '../../hub';
import { hmacHex, isSimKey, sameSignature, simSecret } from '../../private/credentials';
import { accountId, fixed, type AccountKey, type EngineEvent } from '../engine';
import type { VenueContext } from '../venue';
import { isOpen } from '../queries';
import { executionJson, marginJson, orderJson, positionJson } from './format';
import { ids } from './orders';

export const PRIVATE_TOPICS = ['order', 'execution', 'position', 'margin'] as const;
type Topic = (typeof PRIVATE_TOPICS)[number];

const KEYS: Record<Topic, string[]> = { order: ['orderID'], execution: ['execID'], position: ['account', 'symbol'], margin: ['account', 'currency'] };

interface PrivateState {
  account: AccountKey;
  topics: Set<Topic>;
  queue: Map<Topic, unknown[]>;
  privateConn: SimConnection;
}

type Queue = (st: PrivateState, topic: Topic, frame: unknown) => void;

/** One batch of engine events → the account's `order` / `execution` / `position` / `margin` frames. */
function pushEvents(venue: VenueContext, st: PrivateState, events: EngineEvent[], push: Queue): void {
  const { engine } = venue.runtime;
  const { tag, accountNo } = ids(venue, st.account);
  for (const ev of events) {
    if (ev.type === 'order') {
      const spec = engine.instrument(ev.order.symbol);
      if (!spec) continue;
      push(st, 'order', { table: 'order', action: ev.exec === 'new' ? 'insert' : 'update', data: [orderJson(spec, tag, ev.order, String(accountNo))] });
      if (ev.fill) push(st, 'execution', { table: 'execution', action: 'insert', data: [executionJson(spec, tag, ev.fill, ev.order, String(accountNo))] });
    } else if (ev.reason !== 'reset') {
      const positions = ev.positions.flatMap((p) => {
        const spec = engine.instrument(p.symbol);
        return spec ? [positionJson(spec, p, accountNo)] : [];
      });
      if (positions.length) push(st, 'position', { table: 'position', action: 'update', data: positions });
      if (ev.balances.length) push(st, 'margin', { table: 'margin', action: 'update', data: ev.balances.map((b) => marginJson(b, accountNo, ev.time)) });
    }
  }
}

/** `authKeyExpires` / `authKey`: `[apiKey, expires (s), hex HMAC(secret, "GET/realtime" + expires)]`. */
function authenticate(venue: VenueContext, states: Map<SimConnection, PrivateState>, conn: SimConnection, args: unknown[], request: unknown): void {
  const [apiKey, expires, signature] = args;
  const exp = typeof expires === 'number' ? String(expires) : typeof expires === 'string' ? expires : '';
  const fail = (error: string) => conn.send({ status: 401, error, meta: {}, request });
  if (states.has(conn)) return fail('Already authenticated');
  if (typeof apiKey !== 'string' || typeof signature !== 'string' || !/^\d{1,13}$/.test(exp)) return fail('Invalid authKeyExpires arguments');
  if (Number(exp) < Math.floor(venue.runtime.now() / 1000)) return fail('Signature expired');
  if (!isSimKey(apiKey) || !sameSignature(hmacHex(simSecret(venue.seed, apiKey), `GET/realtime${exp}`), signature)) return fail('Signature not valid.');
  const privateConn = new SimConnection('bitmex', conn.socket as WebSocket, (_t, f) => f, 'private');
  const st: PrivateState = { account: { apiKey, exchange: 'bitmex', network: venue.network }, topics: new Set(), queue: new Map(), privateConn };
  states.set(conn, st);
  conn.socket.on('close', () => states.delete(conn));
  venue.hub.add(privateConn);
  conn.send({ success: true, request });
  if (venue.faults.get('bitmex').dropPrivateSockets) venue.hub.drop('bitmex', 'private');
}

const drain = (st: PrivateState, topic: Topic): unknown[] => {
  const q = st.queue.get(topic) ?? [];
  st.queue.set(topic, []);
  return q;
};

/** The topic's current rows as a `partial`. */
async function partial(venue: VenueContext, st: PrivateState, topic: Topic): Promise<unknown> {
  const { runtime } = venue;
  const { engine } = runtime;
  const { tag, accountNo } = ids(venue, st.account);
  const data = await runtime.run(st.account, (id, now) => {
    if (topic === 'order') return engine.openOrders(id).filter(isOpen).map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
    if (topic === 'position') return engine.positions(id).filter((p) => fixed(p.size) !== 0n).map((p) => positionJson(engine.instrument(p.symbol)!, p, accountNo));
    if (topic === 'margin') return engine.balances(id).map((b) => marginJson(b, accountNo, now));
    return [];
  });
  return { table: topic, action: 'partial', keys: KEYS[topic], types: {}, foreignKeys: {}, attributes: {}, filter: { account: accountNo }, data };
}

/** `subscribe` / `unsubscribe` of private topics (after auth): a `partial`, then the updates. */
function subscribe(venue: VenueContext, st: PrivateState | undefined, conn: SimConnection, op: string, topics: Topic[], request: unknown): void {
  for (const topic of topics) {
    if (!st) {
      conn.send({ status: 401, error: 'User requires authorization to subscribe to private topics.', meta: {}, request });
      continue;
    }
    if (op === 'unsubscribe') {
      st.topics.delete(topic);
      conn.subs.delete(topic);
      conn.send({ success: true, unsubscribe: topic, request });
      continue;
    }
    st.topics.add(topic);
    conn.subs.set(topic, { poll: () => drain(st, topic) });
    conn.send({ success: true, subscribe: topic, request });
    void partial(venue, st, topic).then((frame) => {
      st.queue.set(topic, [frame, ...(st.queue.get(topic) ?? [])]);
      venue.hub.pollNow(conn, [topic]);
    });
  }
}

/**
 * BitMEX's private topics on the one `/realtime` socket (bitmex.md §2): `authKeyExpires` (or `authKey`)
 * with hex HMAC("GET/realtime" + expires), then `order`, `execution`, `position`, `margin` — a
 * `partial` of the current rows, then `insert` / `update` as the account changes. Authenticating adds
 * a private-scope connection to the hub, so the drop-private-sockets fault drops the socket.
 */
export function registerBitmexPrivateStream(venue: VenueContext): () => void {
  const { runtime, hub } = venue;
  const states = new Map<SimConnection, PrivateState>();
  const push: Queue = (st, topic, frame) => {
    if (!st.topics.has(topic)) return;
    const q = st.queue.get(topic) ?? [];
    q.push(frame);
    st.queue.set(topic, q);
  };

  const unsubscribe = runtime.subscribe((account, events: EngineEvent[]) => {
    if (account.network !== venue.network) return;
    const id = accountId(account);
    for (const [conn, st] of states) {
      if (accountId(st.account) !== id) continue;
      pushEvents(venue, st, events, push);
      hub.pollNow(conn);
    }
  });

  setBitmexPrivateWs(hub, venue.network, {
    handle(conn, op, args, request) {
      if (op === 'authKeyExpires' || op === 'authKey') {
        authenticate(venue, states, conn, args, request);
        return [];
      }
      if (op !== 'subscribe' && op !== 'unsubscribe') return null;
      const topics = args.filter((a): a is string => typeof a === 'string');
      const mine = topics.filter((t): t is Topic => (PRIVATE_TOPICS as readonly string[]).includes(t));
      const rest = topics.filter((t) => !(PRIVATE_TOPICS as readonly string[]).includes(t));
      if (!mine.length) return rest.length ? rest : null;
      subscribe(venue, states.get(conn), conn, op, mine, request);
      return rest.length ? rest : [];
    },
  });
  return unsubscribe;
}
