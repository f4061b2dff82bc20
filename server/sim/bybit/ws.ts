import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { SimContext } from '../context';
import { SimConnection, type StreamSub } from '../hub';
import { topOfBook } from '../market/derivs';
import { LiveBarTracker, TradeTracker } from '../market/live';
import type { SimMarket } from '../market/market';
import { bybitBookTopic } from './book';
import { BYBIT_INTERVALS, tickerFields, wsKline, wsTickerSnapshot, wsTrades } from './format';

type Category = 'linear' | 'inverse';

/** `kline.{interval}.{symbol}`, `tickers.{symbol}`, `publicTrade.{symbol}`, `orderbook.{depth}.{symbol}` → subscription, or null (unknown topic). */
export function bybitTopic(market: SimMarket, category: Category, topic: string): StreamSub | null {
  const parts = topic.split('.');
  const symbol = parts[parts.length - 1];
  const inst = market.instrument('bybit', symbol);
  if (!inst || inst.category !== category || symbol !== inst.symbol) return null;
  const model = market.model(inst);

  if (parts[0] === 'kline' && parts.length === 3) {
    const interval = parts[1];
    const spec = BYBIT_INTERVALS[interval];
    if (!spec) return null;
    const tracker = new LiveBarTracker(market, inst, spec);
    return {
      poll(now) {
        const { closed, current } = tracker.poll(now);
        const data = [closed, current].flatMap((b) => (b ? [wsKline(model, b, interval, now)] : []));
        return data.length ? [{ topic, data, ts: now, type: 'snapshot' }] : [];
      },
    };
  }
  if (parts[0] === 'orderbook' && parts.length === 3 && /^\d+$/.test(parts[1])) return bybitBookTopic(market, inst, topic, Number(parts[1]));
  if (parts[0] === 'publicTrade' && parts.length === 2) {
    let trades: TradeTracker | null = null;
    let prev: number | undefined;
    let seq = 0;
    return {
      poll(now) {
        trades ??= new TradeTracker(market, inst, now);
        const batch = trades.poll(now);
        if (!batch.length) return [];
        const data = wsTrades(model, batch, prev, seq || batch[0].id);
        prev = batch[batch.length - 1].price;
        seq = data[data.length - 1].seq + 1;
        return [{ topic, type: 'snapshot', ts: now, data }];
      },
    };
  }
  if (parts[0] === 'tickers' && parts.length === 2) {
    let last: Record<string, string> | null = null;
    let lastPrice = -1;
    let dir = 'ZeroPlusTick';
    let cs = Math.floor(market.now() / 10);
    return {
      poll(now) {
        const st = market.stats24h(inst, now);
        const book = topOfBook(market, inst, now);
        if (!st || !book) return [];
        if (lastPrice >= 0 && book.last !== lastPrice) dir = book.last > lastPrice ? 'PlusTick' : 'MinusTick';
        lastPrice = book.last;
        const full: Record<string, string> = wsTickerSnapshot(tickerFields(model, st, book, now), dir);
        cs += 1;
        if (!last) {
          last = full;
          return [{ topic, type: 'snapshot', data: full, cs, ts: now }];
        }
        // Deltas carry only what changed (trap 16): merge them into the snapshot.
        const delta: Record<string, string> = { symbol: full.symbol };
        for (const [k, v] of Object.entries(full)) if (last[k] !== v) delta[k] = v;
        last = full;
        return Object.keys(delta).length > 1 ? [{ topic, type: 'delta', data: delta, cs, ts: now }] : [];
      },
    };
  }
  return null;
}

interface Request {
  op?: unknown;
  args?: unknown;
  req_id?: unknown;
}

/** Bybit v5 public WebSocket: `/sim/bybit/v5/public/{linear,inverse}` (bybit.md §2). */
export function registerBybitWs(app: FastifyInstance, { market, hub }: SimContext): void {
  const open = (socket: WebSocket, category: Category) => {
    const conn = new SimConnection('bybit', socket);
    const connId = randomUUID();
    hub.add(conn);
    socket.on('message', (raw) => {
      let req: Request;
      try {
        req = JSON.parse(raw.toString()) as Request;
      } catch {
        conn.send({ success: false, ret_msg: `error:unmarshal error, request:${raw.toString()}`, conn_id: connId, op: '' });
        return;
      }
      const reqId = typeof req.req_id === 'string' ? req.req_id : '';
      const args = Array.isArray(req.args) ? req.args.filter((a): a is string => typeof a === 'string') : [];
      const ack = (op: string, success: boolean, retMsg = '') => conn.send({ success, ret_msg: retMsg, conn_id: connId, req_id: reqId, op });
      switch (req.op) {
        case 'ping':
          // The public linear/inverse pong keeps op "ping" (trap 17).
          ack('ping', true, 'pong');
          return;
        case 'subscribe': {
          const bad = args.filter((t) => !conn.subs.has(t) && !bybitTopic(market, category, t));
          if (bad.length || args.length === 0) {
            ack('subscribe', false, `error:handler not found,topic:${bad[0] ?? ''}`);
            return;
          }
          for (const t of args) if (!conn.subs.has(t)) conn.subs.set(t, bybitTopic(market, category, t) as StreamSub);
          ack('subscribe', true);
          hub.pollNow(conn, args);
          return;
        }
        case 'unsubscribe':
          for (const t of args) conn.subs.delete(t);
          ack('unsubscribe', true);
          return;
        default:
          ack(String(req.op ?? ''), false, `error:handler not found,op:${String(req.op)}`);
      }
    });
  };
  app.get('/v5/public/linear', { websocket: true }, (socket) => open(socket, 'linear'));
  app.get('/v5/public/inverse', { websocket: true }, (socket) => open(socket, 'inverse'));
}
