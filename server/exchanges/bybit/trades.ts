import { chunks, isObject, parseFrame } from '../tickers';
import { printPrice, RECENT_TRADES, type TradePrint, type TradeStream } from '../trade-stream';

const ARGS_PER_MESSAGE = 10;
const topicOf = (exchangeSymbol: string) => `publicTrade.${exchangeSymbol}`;
const request = (op: 'subscribe' | 'unsubscribe', symbols: readonly string[]) => chunks(symbols.map(topicOf), ARGS_PER_MESSAGE).map((args) => JSON.stringify({ op, args }));

/**
 * `publicTrade.<symbol>` on `/v5/public/linear` or `/inverse` (bybit.md §2: args ≤ 21,000 characters
 * per connection; `{"op":"ping"}` every 20 s). Frame: `{ topic, type: 'snapshot', data: [{ T, s, S, v, p }] }`,
 * new prints only, oldest first.
 */
export const bybitTradeStream: TradeStream = {
  perConnection: 200,
  path: (inst) => `/v5/public/${inst.category === 'inverse' ? 'inverse' : 'linear'}`,
  subscribe: (insts) => request('subscribe', insts.map((i) => i.exchangeSymbol)),
  unsubscribe: (insts) => request('unsubscribe', insts.map((i) => i.exchangeSymbol)),
  heartbeat: { afterMs: 20_000, text: JSON.stringify({ op: 'ping' }) },
  parse(text) {
    const f = parseFrame(text);
    if (!isObject(f) || typeof f.topic !== 'string' || !f.topic.startsWith('publicTrade.') || !Array.isArray(f.data)) return [];
    const out: TradePrint[] = [];
    for (const t of f.data) {
      if (!isObject(t) || typeof t.s !== 'string' || typeof t.T !== 'number') continue;
      const price = printPrice(t.p);
      if (price !== null) out.push({ exchangeSymbol: t.s, price, time: t.T });
    }
    return out;
  },
  // `GET /v5/market/recent-trade` (limit ≤ 1000): `{ retCode, result: { list: [{ symbol, price, size, side, time }] } }`, newest first.
  recent: {
    path: (inst) => `/v5/market/recent-trade?category=${inst.category === 'inverse' ? 'inverse' : 'linear'}&symbol=${encodeURIComponent(inst.exchangeSymbol)}&limit=${RECENT_TRADES}`,
    parse(json, inst) {
      const list = isObject(json) && isObject(json.result) && Array.isArray(json.result.list) ? json.result.list : [];
      const out: TradePrint[] = [];
      for (const t of list) {
        if (!isObject(t)) continue;
        const price = printPrice(t.price);
        const time = Number(t.time);
        if (price !== null && Number.isFinite(time)) out.push({ exchangeSymbol: inst.exchangeSymbol, price, time });
      }
      return out;
    },
  },
};
