import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { queryOf, type SimContext } from '../context';
import { SimConnection, type SimHub, type StreamSub } from '../hub';
import { instrumentsOf, type SimInstrument } from '../market/catalogue';
import { topOfBook } from '../market/derivs';
import { LiveBarTracker, TradeTracker } from '../market/live';
import type { SimMarket } from '../market/market';
import { publicTrades } from '../market/prints';
import { bitmexBookTopic } from './book';
import { BITMEX_BINS, instrumentRecord, iso, TRADE_TYPES, TRADEBIN_TYPES, tradeBin, tradeRow } from './format';

const PARTIAL_TRADES = 10;

/** Per-table protocol frames: `partial` first (with keys/types/filter), then insert/update (trap 16). */
export function bitmexTopic(market: SimMarket, topic: string): StreamSub | null {
  const [table, filterSymbol] = topic.split(':');
  // `trade:*` is every symbol, as BitMEX acks it (the official client subscribes `<table>:*`).
  const symbol = filterSymbol === '*' ? undefined : filterSymbol;
  const insts: SimInstrument[] = symbol
    ? [market.instrument('bitmex', symbol)].filter((i): i is SimInstrument => i !== undefined)
    : instrumentsOf('bitmex');
  if (!insts.length) return null;
  const filter = symbol ? { symbol: insts[0].symbol } : {};
  if (table.startsWith('orderBookL2')) return bitmexBookTopic(market, table, symbol ? insts[0] : undefined);

  if (table === 'trade') {
    const trackers = new Map<string, { t: TradeTracker; prev?: number }>();
    return {
      poll(now) {
        if (!trackers.size) {
          const data = insts.flatMap((inst) => {
            const model = market.model(inst);
            const recent = publicTrades(market, inst, now - 60_000, now).slice(-PARTIAL_TRADES);
            trackers.set(inst.symbol, { t: new TradeTracker(market, inst, now), prev: recent[recent.length - 1]?.price });
            return recent.map((t, k) => tradeRow(model, t, recent[k - 1]?.price));
          });
          return [
            {
              table: 'trade',
              action: 'partial',
              keys: [],
              types: TRADE_TYPES,
              foreignKeys: { symbol: 'instrument', side: 'side' },
              attributes: { timestamp: 'sorted', symbol: 'grouped' },
              filter,
              data,
            },
          ];
        }
        const data = insts.flatMap((inst) => {
          const tr = trackers.get(inst.symbol);
          if (!tr) return [];
          const model = market.model(inst);
          return tr.t.poll(now).map((t) => {
            const row = tradeRow(model, t, tr.prev);
            tr.prev = t.price;
            return row;
          });
        });
        return data.length ? [{ table: 'trade', action: 'insert', data }] : [];
      },
    };
  }

  if (table.startsWith('tradeBin')) {
    const spec = BITMEX_BINS[table.slice('tradeBin'.length)];
    if (!spec) return null;
    const trackers = insts.map((inst) => new LiveBarTracker(market, inst, spec));
    let started = false;
    return {
      poll(now) {
        // Closed bins only; the forming bar must be built from `trade` (trap 3).
        const closed = trackers.flatMap((tr) => {
          const c = tr.poll(now).closed;
          return c ? [tradeBin(market.model(tr.inst), c)] : [];
        });
        if (!started) {
          started = true;
          const data = insts.flatMap((inst) => {
            const last = market.bars(inst, spec, { to: now, limit: 2, prefer: 'latest' }).filter((b) => b.closed).slice(-1);
            return last.map((b) => tradeBin(market.model(inst), b));
          });
          return [
            {
              table,
              action: 'partial',
              keys: [],
              types: TRADEBIN_TYPES,
              foreignKeys: { symbol: 'instrument' },
              attributes: { timestamp: 'sorted', symbol: 'grouped' },
              filter,
              data,
            },
          ];
        }
        return closed.length ? [{ table, action: 'insert', data: closed }] : [];
      },
    };
  }

  if (table === 'instrument') {
    const last = new Map<string, Record<string, unknown>>();
    return {
      poll(now) {
        const rows = insts.map((inst) => instrumentRecord(market.model(inst), market.stats24h(inst, now), topOfBook(market, inst, now), now) as Record<string, unknown>);
        if (!last.size) {
          rows.forEach((r) => last.set(String(r.symbol), r));
          return [
            {
              table: 'instrument',
              action: 'partial',
              keys: ['symbol'],
              types: {},
              foreignKeys: { inverseLeg: 'instrument', sellLeg: 'instrument', buyLeg: 'instrument' },
              attributes: { symbol: 'unique' },
              filter,
              data: rows,
            },
          ];
        }
        // Updates carry the key plus the fields that changed (fixture `ws-instrument-update.json`).
        const WATCHED = ['lastPrice', 'lastChangePcnt', 'bidPrice', 'askPrice', 'midPrice', 'markPrice', 'fairPrice', 'highPrice', 'lowPrice', 'volume24h', 'homeNotional24h', 'foreignNotional24h', 'turnover24h', 'openInterest'];
        const data = rows.flatMap((r) => {
          const prev = last.get(String(r.symbol));
          last.set(String(r.symbol), r);
          const changed: Record<string, unknown> = { symbol: r.symbol };
          for (const k of WATCHED) if (prev?.[k] !== r[k]) changed[k] = r[k];
          if (Object.keys(changed).length === 1) return [];
          if (changed.lastPrice !== undefined && typeof prev?.lastPrice === 'number' && typeof r.lastPrice === 'number') {
            changed.lastTickDirection = r.lastPrice > prev.lastPrice ? 'PlusTick' : r.lastPrice < prev.lastPrice ? 'MinusTick' : 'ZeroPlusTick';
          }
          changed.timestamp = iso(now);
          return [changed];
        });
        return data.length ? [{ table: 'instrument', action: 'update', data }] : [];
      },
    };
  }
  return null;
}

interface Request {
  op?: unknown;
  args?: unknown;
}

/**
 * The private half of BitMEX's one socket (the paper exchange's venue plugs it in): `authKeyExpires`
 * and the private topics. `handle` answers an op it owns and returns the topics it leaves to the
 * public handler (all of them when it owns none).
 */
export interface BitmexPrivateWs {
  handle(conn: SimConnection, op: string, args: unknown[], request: unknown): string[] | null;
  /** The private tables (`/api/v1/schema/websocketHelp` lists them as `authenticationRequired`). */
  readonly tables: readonly string[];
  /** `api-expires` / `api-key` / `api-signature` in the connection URL: null when absent or valid, else the 401 text. */
  checkUrlAuth(query: Record<string, string | undefined>): Promise<string | null>;
  /** Authenticates the socket by its URL keys (after `checkUrlAuth` passed). */
  connect(conn: SimConnection, query: Record<string, string | undefined>): void;
}
const PRIVATE_WS = new WeakMap<SimHub, Partial<Record<'MAINNET' | 'TESTNET', BitmexPrivateWs>>>();

export function setBitmexPrivateWs(hub: SimHub, network: 'MAINNET' | 'TESTNET', ext: BitmexPrivateWs): void {
  PRIVATE_WS.set(hub, { ...PRIVATE_WS.get(hub), [network]: ext });
}

/** The private tables the paper venue serves on this hub (none without it). */
export const bitmexPrivateTables = (hub: SimHub, network: 'MAINNET' | 'TESTNET'): readonly string[] => PRIVATE_WS.get(hub)?.[network]?.tables ?? [];

const networkOf = (url: string) => (url.includes('/testnet/') ? 'TESTNET' : 'MAINNET');

/** BitMEX realtime: `/sim/bitmex/realtime` (bitmex.md §2), private topics after `authKeyExpires` when the paper venue is mounted. */
export function registerBitmexWs(app: FastifyInstance, { market, hub }: SimContext): void {
  // Keys in the URL (bitmex.md §2): a bad signature is refused before the upgrade, HTTP 401 (the official client reads it).
  const preValidation = async (req: FastifyRequest, reply: FastifyReply) => {
    const error = await PRIVATE_WS.get(hub)?.[networkOf(req.url)]?.checkUrlAuth(queryOf(req));
    if (error) return reply.code(401).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ status: 401, error, meta: {}, request: {} }));
  };
  app.get('/realtime', { websocket: true, preValidation }, (socket: WebSocket, req) => {
    const conn = new SimConnection('bitmex', socket);
    const network = networkOf(req.url);
    hub.add(conn);
    conn.send({
      info: 'Welcome to the BitMEX Realtime API.',
      version: '2024-05-29T00:00:00.000Z',
      timestamp: iso(market.now()),
      docs: 'https://www.bitmex.com/app/wsAPI',
      limit: { remaining: 39 },
    });

    const subscribe = (topics: string[], request: unknown) => {
      for (const topic of topics) {
        if (conn.subs.has(topic)) {
          conn.send({ status: 400, error: `You are already subscribed to this topic: ${topic}`, meta: {}, request });
          continue;
        }
        const sub = bitmexTopic(market, topic);
        if (!sub) {
          conn.send({ status: 400, error: `Unknown or unavailable table: ${topic}`, meta: {}, request });
          continue;
        }
        conn.subs.set(topic, sub);
        conn.send({ success: true, subscribe: topic, request });
        hub.pollNow(conn, [topic]);
      }
    };

    const dispatch = (req: Request) => {
      const ext = PRIVATE_WS.get(hub)?.[network];
      const rawArgs = Array.isArray(req.args) ? (req.args as unknown[]) : [req.args];
      const left = ext && typeof req.op === 'string' ? ext.handle(conn, req.op, rawArgs, req) : null;
      if (left !== null && left.length === 0) return;
      const args = (left ?? rawArgs).filter((a): a is string => typeof a === 'string');
      if (req.op === 'subscribe') subscribe(args, req);
      else if (req.op === 'unsubscribe') {
        for (const topic of args) {
          conn.subs.delete(topic);
          conn.send({ success: true, unsubscribe: topic, request: req });
        }
      } else {
        conn.send({ status: 400, error: `Unknown or unsupported op: ${String(req.op)}`, meta: {}, request: req });
      }
    };

    const query = queryOf(req);
    if (query['api-key'] !== undefined) PRIVATE_WS.get(hub)?.[network]?.connect(conn, query);
    const initial = query.subscribe;
    if (initial) dispatch({ op: 'subscribe', args: initial.split(',').filter(Boolean) });

    socket.on('message', (raw) => {
      const text = raw.toString();
      // Heartbeat is the raw text `ping` → `pong`, not JSON (trap 17).
      if (text === 'ping') {
        conn.send('pong');
        return;
      }
      let req: Request;
      try {
        req = JSON.parse(text) as Request;
      } catch {
        conn.send({ status: 400, error: 'Unable to parse request.', meta: {}, request: text });
        return;
      }
      dispatch(req);
    });
  });
}
