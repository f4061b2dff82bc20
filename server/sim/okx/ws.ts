import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { SimContext } from '../context';
import { SimConnection, type SimHub, type StreamSub } from '../hub';
import { topOfBook } from '../market/derivs';
import { Cadence, LiveBarTracker, TradeTracker } from '../market/live';
import type { SimMarket } from '../market/market';
import { okxBookChannel } from './book';
import { candleRow, OKX_BARS, ticker, tradeItem } from './format';
import { startOfDayOpens } from './rest';

type Endpoint = 'public' | 'business';
const TICKER_MS = 100;

/** A channel on an endpoint → subscription; null when OKX would answer 60018 (wrong URL or channel). */
export function okxChannel(market: SimMarket, endpoint: Endpoint, channel: string, instId: string): StreamSub | null {
  const inst = market.instrument('okx', instId);
  if (!inst || inst.symbol !== instId) return null;
  const model = market.model(inst);
  const arg = { channel, instId };

  // Candles live on /business only (trap 7).
  if (channel.startsWith('candle') && endpoint === 'business') {
    const spec = OKX_BARS[channel.slice('candle'.length)];
    if (!spec) return null;
    const tracker = new LiveBarTracker(market, inst, spec);
    return {
      poll(now) {
        const { closed, current } = tracker.poll(now);
        return [closed, current].flatMap((b) => (b ? [{ arg, data: [candleRow(model, b)] }] : []));
      },
    };
  }
  if (channel === 'trades' && endpoint === 'public') {
    let tracker: TradeTracker | null = null;
    return {
      poll(now) {
        tracker ??= new TradeTracker(market, inst, now);
        return tracker.poll(now).map((t) => ({ arg, data: [tradeItem(model, t)] }));
      },
    };
  }
  if ((channel === 'books' || channel === 'books5' || channel === 'bbo-tbt') && endpoint === 'public') return okxBookChannel(market, inst, channel);
  if (channel === 'tickers' && endpoint === 'public') {
    const cadence = new Cadence(TICKER_MS);
    let lastKey = '';
    return {
      poll(now) {
        if (!cadence.due(now)) return [];
        const st = market.stats24h(inst, now);
        const book = topOfBook(market, inst, now);
        if (!st || !book) return [];
        // Pushed only on a trade or a best bid/ask change.
        const key = `${st.agg.lastTradeId}:${book.bid}:${book.ask}`;
        if (key === lastKey) return [];
        lastKey = key;
        const [sod0, sod8] = startOfDayOpens(market, inst, now);
        return [{ arg, data: [ticker(model, st, book, market.lastTrade(inst, now), sod0, sod8, now)] }];
      },
    };
  }
  return null;
}

interface Request {
  id?: unknown;
  op?: unknown;
  args?: unknown;
}

/**
 * The private channels of OKX's `/business` socket (the paper exchange's venue plugs them in): `login`
 * and `orders-algo`. `handle` answers what it owns and returns the subscribe args it leaves to the
 * public handler (null: not its request at all).
 */
export interface OkxBusinessPrivate {
  handle(conn: SimConnection, req: { op?: unknown; args?: unknown; id?: unknown }, ctx: { connId: string; demo: boolean }): unknown[] | null;
}
const BUSINESS_PRIVATE = new WeakMap<SimHub, Partial<Record<'MAINNET' | 'TESTNET', OkxBusinessPrivate>>>();

export function setOkxBusinessPrivate(hub: SimHub, network: 'MAINNET' | 'TESTNET', ext: OkxBusinessPrivate): void {
  BUSINESS_PRIVATE.set(hub, { ...BUSINESS_PRIVATE.get(hub), [network]: ext });
}

/** OKX v5 WebSocket: `/sim/okx/ws/v5/public` and `/sim/okx/ws/v5/business` (okx.md §2). */
export function registerOkxWs(app: FastifyInstance, { market, hub }: SimContext): void {
  const open = (socket: WebSocket, endpoint: Endpoint, network: 'MAINNET' | 'TESTNET' = 'MAINNET', demo = false) => {
    const conn = new SimConnection('okx', socket);
    const connId = randomBytes(4).toString('hex');
    hub.add(conn);
    socket.on('message', (raw) => {
      const text = raw.toString();
      // Raw text ping/pong, not JSON (trap 17).
      if (text === 'ping') {
        conn.send('pong');
        return;
      }
      let req: Request;
      try {
        req = JSON.parse(text) as Request;
      } catch {
        conn.send({ event: 'error', code: '60012', msg: `Invalid request: ${text}`, connId });
        return;
      }
      const id = typeof req.id === 'string' ? { id: req.id } : {};
      const ext = endpoint === 'business' ? BUSINESS_PRIVATE.get(hub)?.[demo ? 'TESTNET' : network] : undefined;
      const left = ext ? ext.handle(conn, req, { connId, demo }) : null;
      if (left !== null) {
        if (left.length === 0) return;
        req.args = left;
      }
      if ((req.op !== 'subscribe' && req.op !== 'unsubscribe') || !Array.isArray(req.args)) {
        conn.send({ ...id, event: 'error', code: '60012', msg: `Invalid request: ${text}`, connId });
        return;
      }
      for (const a of req.args as unknown[]) {
        const arg = (a ?? {}) as { channel?: unknown; instId?: unknown };
        const channel = typeof arg.channel === 'string' ? arg.channel : '';
        const instId = typeof arg.instId === 'string' ? arg.instId : '';
        const topic = `${channel}:${instId}`;
        if (req.op === 'unsubscribe') {
          conn.subs.delete(topic);
          conn.send({ ...id, event: 'unsubscribe', arg: { channel, instId }, connId });
          continue;
        }
        const sub = conn.subs.get(topic) ?? okxChannel(market, endpoint, channel, instId);
        if (!sub) {
          conn.send({
            ...id,
            event: 'error',
            code: '60018',
            msg: `Wrong URL or channel:${channel},instId:${instId} doesn't exist. Please use the correct URL, channel and parameters referring to API document.`,
            connId,
          });
          continue;
        }
        conn.subs.set(topic, sub);
        conn.send({ ...id, event: 'subscribe', arg: { channel, instId }, connId });
        hub.pollNow(conn, [topic]);
      }
    });
  };
  app.get('/ws/v5/public', { websocket: true }, (socket) => open(socket, 'public'));
  app.get('/ws/v5/business', { websocket: true }, (socket, req) =>
    open(socket, 'business', req.url.includes('/testnet/') ? 'TESTNET' : 'MAINNET', req.headers['x-simulated-trading'] === '1'),
  );
}
