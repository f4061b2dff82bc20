import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { queryOf, type SimContext } from '../context';
import { SimConnection, type StreamSub } from '../hub';
import { instrumentsOf } from '../market/catalogue';
import { Cadence, LiveBarTracker, TradeTracker } from '../market/live';
import type { SimMarket } from '../market/market';
import { binanceBookStream } from './book';
import { aggTradeEvent, BINANCE_INTERVALS, klineEvent, miniTickerEvent, tickerEvent } from './format';

/** Push cadences of the ticker streams (binance.md §2); klines and aggTrades go out every hub tick. */
const TICKER_MS = 2000;
const ALL_TICKERS_MS = 1000;

/**
 * A stream name → its subscription, or null for names binance would accept but never feed
 * (unknown symbol, upper-case names): the real server answers `result:null` and stays silent.
 */
export function binanceStream(market: SimMarket, name: string): StreamSub | null {
  if (name === '!ticker@arr' || name === '!miniTicker@arr') {
    const cadence = new Cadence(ALL_TICKERS_MS);
    const mini = name === '!miniTicker@arr';
    return {
      poll(now) {
        if (!cadence.due(now)) return [];
        const rows = instrumentsOf('binance').flatMap((inst) => {
          const st = market.stats24h(inst, now);
          if (!st) return [];
          const m = market.model(inst);
          return [mini ? miniTickerEvent(m, st, now) : tickerEvent(m, st, market.lastTrade(inst, now), now)];
        });
        return rows.length ? [rows] : [];
      },
    };
  }
  const at = name.indexOf('@');
  if (at <= 0) return null;
  const symbol = name.slice(0, at);
  const kind = name.slice(at + 1);
  if (symbol !== symbol.toLowerCase()) return null;
  const inst = market.instrument('binance', symbol);
  if (!inst) return null;
  const model = market.model(inst);

  if (kind.startsWith('kline_')) {
    const interval = kind.slice('kline_'.length);
    const spec = BINANCE_INTERVALS[interval];
    if (!spec) return null;
    const tracker = new LiveBarTracker(market, inst, spec);
    return {
      poll(now) {
        const { closed, current } = tracker.poll(now);
        const out: unknown[] = [];
        if (closed) out.push(klineEvent(model, closed, interval, now));
        if (current) out.push(klineEvent(model, current, interval, now));
        return out;
      },
    };
  }
  if (kind === 'aggTrade') {
    let trades: TradeTracker | null = null;
    return {
      poll(now) {
        trades ??= new TradeTracker(market, inst, now);
        return trades.poll(now).map((t) => aggTradeEvent(model, t, now));
      },
    };
  }
  if (kind === 'bookTicker' || kind.startsWith('depth')) return binanceBookStream(market, inst, kind);
  if (kind === 'ticker' || kind === 'miniTicker') {
    const cadence = new Cadence(TICKER_MS);
    return {
      poll(now) {
        if (!cadence.due(now)) return [];
        const st = market.stats24h(inst, now);
        if (!st) return [];
        return [kind === 'ticker' ? tickerEvent(model, st, market.lastTrade(inst, now), now) : miniTickerEvent(model, st, now)];
      },
    };
  }
  return null;
}

const SILENT: StreamSub = { poll: () => [] };

interface Request {
  method?: unknown;
  params?: unknown;
  id?: unknown;
}

/** Binance market streams: raw `/market/ws[/<stream>]`, combined `/market/stream?streams=a/b`. */
export function registerBinanceWs(app: FastifyInstance, ctx: SimContext): void {
  const { market, hub } = ctx;

  const open = (socket: WebSocket, initial: string[], combined: boolean, resolve: (name: string) => StreamSub | null = (n) => binanceStream(market, n)) => {
    const state = { combined };
    const conn = new SimConnection('binance', socket, (topic, frame) => (state.combined ? { stream: topic, data: frame } : frame));
    const subscribe = (names: string[]) => {
      for (const n of names) if (!conn.subs.has(n)) conn.subs.set(n, resolve(n) ?? SILENT);
    };
    subscribe(initial);
    hub.add(conn);

    socket.on('message', (raw, isBinary) => {
      let req: Request;
      try {
        req = JSON.parse(isBinary ? '' : raw.toString()) as Request;
      } catch {
        conn.send({ error: { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' }, id: null });
        return;
      }
      const id = typeof req.id === 'number' || typeof req.id === 'string' ? req.id : null;
      const params = Array.isArray(req.params) ? req.params : [];
      switch (req.method) {
        case 'SUBSCRIBE': {
          const names = params.filter((p): p is string => typeof p === 'string');
          subscribe(names);
          conn.send({ result: null, id });
          hub.pollNow(conn, names);
          return;
        }
        case 'UNSUBSCRIBE':
          for (const p of params) if (typeof p === 'string') conn.subs.delete(p);
          conn.send({ result: null, id });
          return;
        case 'LIST_SUBSCRIPTIONS':
          conn.send({ result: [...conn.subs.keys()], id });
          return;
        case 'SET_PROPERTY':
          if (params[0] === 'combined' && typeof params[1] === 'boolean') {
            state.combined = params[1];
            conn.send({ result: null, id });
          } else {
            conn.send({ error: { code: 0, msg: 'Unknown property' }, id });
          }
          return;
        case 'GET_PROPERTY':
          if (params[0] === 'combined') conn.send({ result: state.combined, id });
          else conn.send({ error: { code: 0, msg: 'Unknown property' }, id });
          return;
        default:
          conn.send({ error: { code: 2, msg: `Invalid request: unknown variant \`${String(req.method)}\`` }, id });
      }
    });
    hub.pollNow(conn);
  };

  app.get('/market/ws', { websocket: true }, (socket) => open(socket, [], false));
  app.get<{ Params: { stream: string } }>('/market/ws/:stream', { websocket: true }, (socket, req) => open(socket, [req.params.stream], false));
  app.get('/market/stream', { websocket: true }, (socket, req) => {
    const streams = queryOf(req).streams;
    open(socket, streams ? streams.split('/').filter(Boolean) : [], true);
  });
  // The routed `/public` socket (binance.md §2; Binance's official connector opens it with the others):
  // the high-frequency streams only (depth, bookTicker); any other name is accepted and stays silent.
  const publicOnly = (n: string) => (/^!bookTicker$|@(bookTicker|depth)/.test(n) ? binanceStream(market, n) : null);
  app.get('/public/ws', { websocket: true }, (socket) => open(socket, [], false, publicOnly));
  app.get<{ Params: { stream: string } }>('/public/ws/:stream', { websocket: true }, (socket, req) => open(socket, [req.params.stream], false, publicOnly));
  app.get('/public/stream', { websocket: true }, (socket, req) => {
    const streams = queryOf(req).streams;
    open(socket, streams ? streams.split('/').filter(Boolean) : [], true, publicOnly);
  });
}
