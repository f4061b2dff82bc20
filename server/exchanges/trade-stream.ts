import type { Instrument } from '../../src/api/contracts/exchanges';

/**
 * The exchanges' public trade streams, per pair (issue 26 §3: Binance `aggTrade`, Bybit `publicTrade`,
 * OKX `trades`, BitMEX `trade`): every print, so a price touched inside a second is heard — what the
 * server's alert evaluator listens to. Unlike the all-market ticker stream (`tickers.ts`) these are
 * subscribed pair by pair on open sockets, as alerts come and go.
 */

/** One print: the exchange's symbol, its price and the exchange's time of it (ms). */
export interface TradePrint {
  exchangeSymbol: string;
  price: number;
  time: number;
}

export interface TradeStream {
  /** Pairs one connection carries at most (under the exchange's own cap: Binance 1024 streams, OKX 480 requests/hour, Bybit 21,000 characters of args). */
  perConnection: number;
  /** The socket path below the exchange's WebSocket root a pair's trades are on (Bybit: one per category). */
  path(inst: Instrument): string;
  /** The messages that (un)subscribe these pairs, all on one connection's path. */
  subscribe(insts: readonly Instrument[]): string[];
  unsubscribe(insts: readonly Instrument[]): string[];
  /** Client heartbeat: text to send when the stream has been quiet for `afterMs` (Binance: none, the server pings). */
  heartbeat: { afterMs: number; text: string } | null;
  /** A frame's new prints (acknowledgements, pongs and replayed history: none). */
  parse(text: string): TradePrint[];
  /**
   * The pair's latest prints over REST (at most `RECENT_TRADES`): what was printed before its subscription was
   * live. `parse` takes the answer's JSON (any order; a malformed item is skipped).
   */
  recent: { path(inst: Instrument): string; parse(json: unknown, inst: Instrument): TradePrint[] };
}

/** Prints asked for at most by `TradeStream.recent` (every exchange's REST gives at least 500). */
export const RECENT_TRADES = 500;

/** A positive finite price from a wire value (string or number), else null. */
export function printPrice(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}
