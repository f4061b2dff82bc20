import { chunks, isObject, parseFrame } from '../tickers';
import { printPrice, RECENT_TRADES, type TradePrint, type TradeStream } from '../trade-stream';

const STREAMS_PER_MESSAGE = 50;
const streamOf = (exchangeSymbol: string) => `${exchangeSymbol.toLowerCase()}@aggTrade`;
const request = (method: 'SUBSCRIBE' | 'UNSUBSCRIBE', names: string[], id: number) => JSON.stringify({ method, params: names, id });

/**
 * `<symbol>@aggTrade` on the raw `/market/ws` socket, (un)subscribed with `SUBSCRIBE`/`UNSUBSCRIBE`
 * (binance.md §3: at most 1024 streams and 10 incoming messages a second per connection; the server
 * pings). Frame: `{ e: 'aggTrade', s, p, q, T, m, a }`.
 */
export const binanceTradeStream: TradeStream = {
  perConnection: 200,
  path: () => '/market/ws',
  subscribe: (insts) => chunks(insts.map((i) => streamOf(i.exchangeSymbol)), STREAMS_PER_MESSAGE).map((names, k) => request('SUBSCRIBE', names, k + 1)),
  unsubscribe: (insts) => chunks(insts.map((i) => streamOf(i.exchangeSymbol)), STREAMS_PER_MESSAGE).map((names, k) => request('UNSUBSCRIBE', names, k + 1)),
  heartbeat: null,
  parse(text) {
    const f = parseFrame(text);
    const e = isObject(f) && isObject(f.data) ? f.data : f; // raw, or a combined stream's envelope
    if (!isObject(e) || e.e !== 'aggTrade' || typeof e.s !== 'string' || typeof e.T !== 'number') return [];
    const price = printPrice(e.p);
    return price === null ? [] : [{ exchangeSymbol: e.s, price, time: e.T }];
  },
  // `GET /fapi/v1/trades` (limit ≤ 1000): `[{ id, price, qty, quoteQty, time, isBuyerMaker }]`, oldest first.
  recent: {
    path: (inst) => `/fapi/v1/trades?symbol=${encodeURIComponent(inst.exchangeSymbol)}&limit=${RECENT_TRADES}`,
    parse(json, inst) {
      if (!Array.isArray(json)) return [];
      const out: TradePrint[] = [];
      for (const t of json) {
        const price = isObject(t) ? printPrice(t.price) : null;
        if (price !== null && isObject(t) && typeof t.time === 'number') out.push({ exchangeSymbol: inst.exchangeSymbol, price, time: t.time });
      }
      return out;
    },
  },
};
