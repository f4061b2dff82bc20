import { chunks, isObject, parseFrame } from '../tickers';
import { printPrice, RECENT_TRADES, type TradePrint, type TradeStream } from '../trade-stream';

const ARGS_PER_MESSAGE = 50;
const request = (op: 'subscribe' | 'unsubscribe', instIds: readonly string[]) =>
  chunks(instIds.map((instId) => ({ channel: 'trades', instId })), ARGS_PER_MESSAGE).map((args) => JSON.stringify({ op, args }));

/**
 * Channel `trades` per instId on `/ws/v5/public` (okx.md §2: 480 (un)subscribe requests an hour per
 * connection, args ≤ 64 KB; raw `ping` when quiet). Frame: `{ arg: { channel: 'trades', instId }, data: [{ instId, px, sz, side, ts }] }`.
 */
export const okxTradeStream: TradeStream = {
  perConnection: 200,
  path: () => '/ws/v5/public',
  subscribe: (insts) => request('subscribe', insts.map((i) => i.exchangeSymbol)),
  unsubscribe: (insts) => request('unsubscribe', insts.map((i) => i.exchangeSymbol)),
  heartbeat: { afterMs: 20_000, text: 'ping' },
  parse(text) {
    const f = parseFrame(text);
    if (!isObject(f) || !isObject(f.arg) || f.arg.channel !== 'trades' || !Array.isArray(f.data)) return [];
    return prints(f.data);
  },
  // `GET /api/v5/market/trades` (limit ≤ 500): `{ code, data: [{ instId, tradeId, px, sz, side, ts }] }`, newest first.
  recent: {
    path: (inst) => `/api/v5/market/trades?instId=${encodeURIComponent(inst.exchangeSymbol)}&limit=${RECENT_TRADES}`,
    parse: (json) => (isObject(json) && Array.isArray(json.data) ? prints(json.data) : []),
  },
};

/** `{ instId, px, ts }` items, as the stream and REST write them. */
function prints(items: unknown[]): TradePrint[] {
  const out: TradePrint[] = [];
  for (const t of items) {
    if (!isObject(t) || typeof t.instId !== 'string') continue;
    const price = printPrice(t.px);
    const time = Number(t.ts);
    if (price !== null && Number.isFinite(time)) out.push({ exchangeSymbol: t.instId, price, time });
  }
  return out;
}
