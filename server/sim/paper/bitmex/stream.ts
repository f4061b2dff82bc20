import type { WebSocket } from 'ws';
import { setBitmexPrivateWs } from '../../bitmex/ws';
import { SimConnection } from '../../hub';
import { hmacHex, sameSignature } from '../../private/credentials';
import { withSimSecret } from '../../private/keyring';
import { accountId, type AccountKey, type EngineEvent } from '../engine';
import { isOpen } from '../queries';
import type { VenueContext } from '../venue';
import { BITMEX_INSTRUMENTS } from './economics';
import { executionRow, marginJson, orderRow, positionJson, walletJson } from './format';
import { ids } from './orders';

export const PRIVATE_TOPICS = ['order', 'execution', 'position', 'margin', 'wallet'] as const;
type Table = (typeof PRIVATE_TOPICS)[number];
type Row = Record<string, unknown>;

/** The partial's `keys` (the client keeps each table keyed by them and drops updates of rows it has not seen). */
const KEYS: Record<Table, string[]> = { order: ['orderID'], execution: ['execID'], position: ['account', 'symbol'], margin: ['account', 'currency'], wallet: ['account', 'currency'] };
/** What an `update` carries beside the keys and the changed fields (the client splits rows by `symbol`). */
const ALWAYS: Record<Table, string[]> = { order: ['clOrdID', 'account', 'symbol'], execution: [], position: ['currency'], margin: [], wallet: [] };
/** Tables filtered by symbol (`order:XBTUSD`); the others are per account (`margin`, or `margin:*` as the official client asks). */
const SYMBOL_TABLES: ReadonlySet<Table> = new Set(['order', 'execution', 'position']);

/** One private subscription: the rows the client holds (by key), what waits to be sent, events that came before its partial. */
interface Sub {
  table: Table;
  symbol: string | undefined;
  ready: boolean;
  held: Map<string, Row>;
  queue: unknown[];
  early: Array<{ seq: number; rows: Row[] }>;
}

interface PrivateState {
  account: AccountKey;
  subs: Map<string, Sub>;
  privateConn: SimConnection;
}

const keyOf = (table: Table, row: Row) => KEYS[table].map((k) => String(row[k])).join('|');

/**
 * The table-diff protocol (bitmex.md §2): a row the client has not seen is an `insert` (whole row), a
 * known one an `update` with its keys and the fields that changed (nothing when only the timestamp
 * moved); executions are insert-only. BitMEX sends no `delete` on these tables: a filled or cancelled
 * order and a closed position stay as updated rows (its official clients drop them themselves).
 */
function diff(sub: Sub, rows: Row[]): void {
  const inserts: Row[] = [];
  const updates: Row[] = [];
  for (const row of rows) {
    if (sub.symbol !== undefined && row.symbol !== sub.symbol) continue;
    const key = keyOf(sub.table, row);
    const prev = sub.held.get(key);
    sub.held.set(key, row);
    if (!prev || sub.table === 'execution') {
      if (!prev) inserts.push(row);
      continue;
    }
    const changed = Object.keys(row).filter((k) => k !== 'timestamp' && JSON.stringify(row[k]) !== JSON.stringify(prev[k]));
    if (!changed.length) continue;
    const fields = [...KEYS[sub.table], ...ALWAYS[sub.table], ...changed, 'timestamp'];
    updates.push(Object.fromEntries(fields.filter((k) => k in row).map((k) => [k, row[k]])));
  }
  if (inserts.length) sub.queue.push({ table: sub.table, action: 'insert', data: inserts });
  if (updates.length) sub.queue.push({ table: sub.table, action: 'update', data: updates });
}

/** One batch of engine events → each table's rows, in order. */
function rowsOf(venue: VenueContext, account: AccountKey, events: EngineEvent[]): Record<Table, Row[]> {
  const { engine } = venue.runtime;
  const { tag, accountNo } = ids(venue, account);
  const out: Record<Table, Row[]> = { order: [], execution: [], position: [], margin: [], wallet: [] };
  for (const ev of events) {
    if (ev.type === 'order') {
      const spec = engine.instrument(ev.order.symbol);
      if (!spec) continue;
      out.order.push(orderRow(spec, tag, ev.order, accountNo));
      if (ev.fill) out.execution.push(executionRow(spec, tag, ev.fill, ev.order, accountNo));
    } else if (ev.reason !== 'reset') {
      for (const p of ev.positions) {
        const spec = engine.instrument(p.symbol);
        if (spec) out.position.push(positionJson(spec, p, accountNo));
      }
      for (const b of ev.balances) {
        out.margin.push(marginJson(b, accountNo, ev.time));
        out.wallet.push(walletJson(b, accountNo, ev.time));
      }
    }
  }
  return out;
}

/** Position rows a venue handler publishes itself (a leverage or margin-mode change on a flat symbol: the engine's event names no position). */
const POSITION_NOTES = new WeakMap<object, Set<(account: AccountKey, rows: Row[]) => void>>();

/** Sends the account's `position` subscribers these rows (inserted when new to them, else updated), after the handler's own events. */
export function notePositionRows(venue: VenueContext, account: AccountKey, rows: Row[]): void {
  for (const note of POSITION_NOTES.get(venue.runtime) ?? []) note(account, rows);
}

/**
 * The signature BitMEX asks of a socket: hex HMAC(secret, "GET/realtime" + expires); null when it holds.
 * Reads the key from the key ring's cache: callers look the key up first (`withSimSecret`, `secretOf`).
 */
function checkSignature(venue: VenueContext, apiKey: unknown, expires: unknown, signature: unknown): string | null {
  const exp = typeof expires === 'number' ? String(expires) : typeof expires === 'string' ? expires : '';
  if (typeof apiKey !== 'string' || typeof signature !== 'string' || !/^\d{1,13}$/.test(exp)) return 'Invalid authKeyExpires arguments';
  if (Number(exp) < Math.floor(venue.runtime.now() / 1000)) return 'Signature expired';
  const known = venue.keys.cached(apiKey);
  if (!known || !sameSignature(hmacHex(known.secret, `GET/realtime${exp}`), signature)) return 'Signature not valid.';
  return null;
}

/**
 * BitMEX's private topics on the one `/realtime` socket (bitmex.md §2): authenticated by `authKeyExpires`
 * (or `authKey`) or by `api-expires` / `api-key` / `api-signature` in the URL, then `order`, `execution`,
 * `position` (each also `:<symbol>`), `margin` and `wallet` — a `partial` of the current rows, then
 * `insert` / `update` as the account changes. Authenticating adds a private-scope connection to the hub,
 * so the drop-private-sockets fault drops the socket.
 */
export function registerBitmexPrivateStream(venue: VenueContext): () => void {
  return new BitmexPrivateStream(venue).register();
}

class BitmexPrivateStream {
  private readonly states = new Map<SimConnection, PrivateState>();
  /** Counts the runtime's event batches: a partial knows which ones it already holds. */
  private seq = 0;

  constructor(private readonly venue: VenueContext) {}

  register(): () => void {
    const { runtime } = this.venue;
    const unsubscribe = runtime.subscribe((account, events: EngineEvent[]) => this.onEvents(account, events));
    const note = (account: AccountKey, rows: Row[]) => this.onPositionNote(account, rows);
    const notes = POSITION_NOTES.get(runtime) ?? new Set();
    POSITION_NOTES.set(runtime, notes.add(note));
    setBitmexPrivateWs(this.venue.hub, this.venue.network, {
      tables: PRIVATE_TOPICS,
      handle: (conn, op, args, request) => this.handle(conn, op, args, request),
      checkUrlAuth: async (q) => {
        if (q['api-key'] === undefined && q['api-signature'] === undefined && q['api-expires'] === undefined) return null;
        await this.venue.keys.secretOf(q['api-key'] ?? '').catch(() => null);
        return checkSignature(this.venue, q['api-key'], q['api-expires'], q['api-signature']);
      },
      connect: (conn, q) => {
        if (this.states.has(conn) || checkSignature(this.venue, q['api-key'], q['api-expires'], q['api-signature']) !== null) return;
        this.authenticate(conn, q['api-key']!);
        this.dropIfFaulted();
      },
    });
    return () => {
      notes.delete(note);
      unsubscribe();
    };
  }

  /** An account's events: each subscription of its sockets gets the rows' diff (or keeps them until its partial is out). */
  private onEvents(account: AccountKey, events: EngineEvent[]): void {
    this.seq++;
    if (account.network !== this.venue.network) return;
    const id = accountId(account);
    let rows: Record<Table, Row[]> | undefined;
    for (const [conn, st] of this.states) {
      if (accountId(st.account) !== id || !st.subs.size) continue;
      rows ??= rowsOf(this.venue, account, events);
      for (const sub of st.subs.values()) {
        if (sub.ready) diff(sub, rows[sub.table]);
        else sub.early.push({ seq: this.seq, rows: rows[sub.table] });
      }
      this.venue.hub.pollNow(conn);
    }
  }

  /** A position row a handler publishes itself (a leverage change with no position event). */
  private onPositionNote(account: AccountKey, rows: Row[]): void {
    if (account.network !== this.venue.network) return;
    for (const [conn, st] of this.states) {
      if (accountId(st.account) !== accountId(account)) continue;
      for (const sub of st.subs.values()) if (sub.table === 'position' && sub.ready) diff(sub, rows);
      this.venue.hub.pollNow(conn);
    }
  }

  private authenticate(conn: SimConnection, apiKey: string): void {
    const privateConn = new SimConnection('bitmex', conn.socket as WebSocket, (_t, f) => f, 'private');
    this.states.set(conn, { account: { apiKey, exchange: 'bitmex', network: this.venue.network }, subs: new Map(), privateConn });
    conn.socket.on('close', () => this.states.delete(conn));
    this.venue.hub.add(privateConn);
  }

  private dropIfFaulted(): void {
    if (this.venue.faults.get('bitmex').dropPrivateSockets) this.venue.hub.drop('bitmex', 'private');
  }

  /** `authKeyExpires` / `authKey`, and the private topics of `subscribe` / `unsubscribe` (the rest goes back to the public socket). */
  private handle(conn: SimConnection, op: string, args: unknown[], request: unknown): string[] | null {
    if (op === 'authKeyExpires' || op === 'authKey') {
      this.authKeyExpires(conn, args, request);
      return [];
    }
    if (op !== 'subscribe' && op !== 'unsubscribe') return null;
    const topics = args.filter((a): a is string => typeof a === 'string');
    const isMine = (t: string) => (PRIVATE_TOPICS as readonly string[]).includes(t.split(':')[0]);
    const mine = topics.filter(isMine);
    const rest = topics.filter((t) => !isMine(t));
    if (!mine.length) return rest.length ? rest : null;
    for (const topic of mine) this.subscribe(conn, op, topic, request);
    return rest.length ? rest : [];
  }

  private authKeyExpires(conn: SimConnection, args: unknown[], request: unknown): void {
    const fail = (error: string) => conn.send({ status: 401, error, meta: {}, request });
    if (this.states.has(conn)) return fail('Already authenticated');
    withSimSecret(this.venue.keys, String(args[0]), () => {
      const error = checkSignature(this.venue, args[0], args[1], args[2]);
      if (error) fail(error);
      else if (this.states.has(conn)) fail('Already authenticated');
      else {
        this.authenticate(conn, args[0] as string);
        conn.send({ success: true, request });
        this.dropIfFaulted();
      }
    });
  }

  private subscribe(conn: SimConnection, op: string, topic: string, request: unknown): void {
    const st = this.states.get(conn);
    if (!st) return void conn.send({ status: 401, error: 'User requires authorization to subscribe to private topics.', meta: {}, request });
    if (op === 'unsubscribe') {
      st.subs.delete(topic);
      conn.subs.delete(topic);
      return void conn.send({ success: true, unsubscribe: topic, request });
    }
    if (conn.subs.has(topic)) return void conn.send({ status: 400, error: `You are already subscribed to this topic: ${topic}`, meta: {}, request });
    const [name, filter] = topic.split(':');
    const table = name as Table;
    const symbol = filter === undefined || filter === '*' ? undefined : SYMBOL_TABLES.has(table) ? BITMEX_INSTRUMENTS.find(filter)?.symbol : undefined;
    if (filter !== undefined && filter !== '*' && symbol === undefined) return void conn.send({ status: 400, error: `Unknown or unavailable table: ${topic}`, meta: {}, request });
    const sub: Sub = { table, symbol, ready: false, held: new Map(), queue: [], early: [] };
    st.subs.set(topic, sub);
    conn.subs.set(topic, { poll: () => (sub.ready ? sub.queue.splice(0) : []) });
    conn.send({ success: true, subscribe: topic, request });
    void this.start(conn, st, topic, sub);
  }

  /** The table's current rows as a `partial`, then what happened since. */
  private async start(conn: SimConnection, st: PrivateState, topic: string, sub: Sub): Promise<void> {
    const { runtime } = this.venue;
    const { engine } = runtime;
    const { tag, accountNo } = ids(this.venue, st.account);
    const snap = await runtime.run(st.account, (id, now) => {
      const at = this.seq;
      let rows: Row[] = [];
      if (sub.table === 'order') rows = engine.openOrders(id).filter(isOpen).map((o) => orderRow(engine.instrument(o.symbol)!, tag, o, accountNo));
      if (sub.table === 'position') rows = engine.positions(id).map((p) => positionJson(engine.instrument(p.symbol)!, p, accountNo));
      if (sub.table === 'margin') rows = engine.balances(id).map((b) => marginJson(b, accountNo, now));
      if (sub.table === 'wallet') rows = engine.balances(id).map((b) => walletJson(b, accountNo, now));
      return { at, rows };
    });
    if (st.subs.get(topic) !== sub) return;
    const data = snap.rows.filter((r) => sub.symbol === undefined || r.symbol === sub.symbol);
    for (const r of data) sub.held.set(keyOf(sub.table, r), r);
    const filter = sub.symbol === undefined ? { account: accountNo } : { account: accountNo, symbol: sub.symbol };
    sub.queue.unshift({ table: sub.table, action: 'partial', keys: KEYS[sub.table], types: {}, foreignKeys: {}, attributes: {}, filter, data });
    sub.ready = true;
    for (const e of sub.early) if (e.seq > snap.at) diff(sub, e.rows);
    sub.early = [];
    this.venue.hub.pollNow(conn, [topic]);
  }
}
