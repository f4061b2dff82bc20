import { chunks, isObject, parseFrame } from '../tickers';
import { printPrice, RECENT_TRADES, type TradePrint, type TradeStream } from '../trade-stream';

const ARGS_PER_MESSAGE = 50;
const request = (op: 'subscribe' | 'unsubscribe', symbols: readonly string[]) =>
  chunks(symbols.map((s) => `trade:${s}`), ARGS_PER_MESSAGE).map((args) => JSON.stringify({ op, args }));

/**
 * Table `trade:<symbol>` on `/realtime` (raw `ping` after 5 s of silence). Frame: `{ table: 'trade',
 * action: 'partial' | 'insert', data: [{ timestamp, symbol, side, size, price }] }`. The partial
 * replays recent prints from before the subscription: none of them is new, so it gives none.
 */
export const bitmexTradeStream: TradeStream = {
  perConnection: 200,
  path: () => '/realtime',
  subscribe: (insts) => request('subscribe', insts.map((i) => i.exchangeSymbol)),
  unsubscribe: (insts) => request('unsubscribe', insts.map((i) => i.exchangeSymbol)),
  heartbeat: { afterMs: 5_000, text: 'ping' },
  parse(text) {
    const f = parseFrame(text);
    if (!isObject(f) || f.table !== 'trade' || f.action !== 'insert' || !Array.isArray(f.data)) return [];
    return prints(f.data);
  },
  // `GET /api/v1/trade?reverse=true` (count ≤ 1000): `[{ timestamp, symbol, side, size, price }]`, newest first.
  recent: {
    path: (inst) => `/api/v1/trade?symbol=${encodeURIComponent(inst.exchangeSymbol)}&count=${RECENT_TRADES}&reverse=true`,
    parse: (json) => (Array.isArray(json) ? prints(json) : []),
  },
};

/** `{ symbol, price, timestamp }` rows, as the stream and REST write them. */
function prints(rows: unknown[]): TradePrint[] {
  const out: TradePrint[] = [];
  for (const t of rows) {
    if (!isObject(t) || typeof t.symbol !== 'string' || typeof t.timestamp !== 'string') continue;
    const price = printPrice(t.price);
    const time = Date.parse(t.timestamp);
    if (price !== null && Number.isFinite(time)) out.push({ exchangeSymbol: t.symbol, price, time });
  }
  return out;
}
