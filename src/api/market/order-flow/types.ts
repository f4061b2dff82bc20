import type { ExchangeId } from '../../contracts/common';
import type { FetchLike } from '../http';
import type { ContractCategory } from '../types';
import type { BackoffOptions, WebSocketCtor } from '../ws-connection';

/**
 * The order flow of one exchange and pair (issue 25 §2): a local order book kept in sync from the
 * exchange's public depth stream as the exchange documents it, and its public trades. One feed per
 * exchange, pair and network, shared by every panel that shows it (Order book, Trades tape, DOM ladder);
 * in simulator mode the same code reads the simulator's book and trades (`/sim/<exchange>`).
 *
 * Prices and sizes arrive as the exchange's decimal strings and stay the level's identity (`price`);
 * the numbers beside them (`p`, `s`) are for drawing only (bar widths, sorting) — never for an order.
 */
export interface BookLevel {
  /** The exchange's decimal string: the level's identity, what Order entry takes on a click. */
  price: string;
  size: string;
  p: number;
  s: number;
}

/**
 * - `connecting`: no book yet;
 * - `live`: in sync;
 * - `resyncing`: a sequence gap or a checksum failure was seen: the book is being rebuilt from a snapshot
 *   (panels say "resyncing" and keep the last good book greyed);
 * - `reconnecting`: the socket dropped; backoff as the candle streams (ws-connection.ts);
 * - `error`: the exchange refused (message in `error`).
 */
export type OrderFlowStatus = 'connecting' | 'live' | 'resyncing' | 'reconnecting' | 'error';

/**
 * What a panel reads, at most once a frame. Arrays are best first (bids descending, asks ascending) and
 * are reused between reads: copy what you keep.
 */
export interface BookView {
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  /** Bumps on every applied change: a panel repaints only when it moved since its last frame. */
  version: number;
  status: OrderFlowStatus;
  error?: string;
  /** The exchange's tick size for the pair (the grouping base), as a decimal string. */
  tickSize: string;
}

/** One public trade (or an aggregate of same-side prints within a few ms: `count` > 1). */
export interface TradePrint {
  /** ms since epoch (the exchange's trade time). */
  time: number;
  price: string;
  size: string;
  p: number;
  s: number;
  side: 'buy' | 'sell';
  count: number;
  /** The exchange's trade id (the first one's when aggregated): tells a replayed trade from a new one. */
  id: string;
}

export interface OrderFlowKey {
  exchange: ExchangeId;
  /** Our pair (`BTCUSDT`, `XBTUSD`), mapped to the exchange's id by the feed. */
  symbol: string;
  testnet: boolean;
  category?: ContractCategory;
}

export interface OrderFlowFeed {
  readonly key: OrderFlowKey;
  /** The current book; `depth` levels per side at most (default: all the feed holds). */
  book(depth?: number): BookView;
  /** The newest trades first, up to `limit` (the feed keeps a bounded ring, default 500). */
  trades(limit?: number): readonly TradePrint[];
  /** Called (at most once per animation frame, coalesced) when the book or the trades changed. */
  onChange(listener: () => void): () => void;
  /** Resync / reconnect counters, for the panels' status line and the tests. */
  readonly stats: { gaps: number; checksumFailures: number; resyncs: number; reconnects: number };
}

/**
 * What `acquireOrderFlow` takes besides the key. Every field is optional; the first panel to acquire a
 * feed creates it with its options (the transport ones are for tests), later acquirers share it as is —
 * except `tickSize`, which any acquirer may supply (the instrument list arrives after the first paint).
 */
export interface OrderFlowOptions {
  /** The pair's tick size from exchange-info (decimal string): `BookView.tickSize`, the grouping base. */
  tickSize?: string;
  /** Default `globalThis.WebSocket`; Node tests inject the `ws` package's constructor. */
  WebSocket?: WebSocketCtor;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Default the page's location; resolves same-origin WebSocket bases (`/sim/okx`). */
  location?: { protocol: string; host: string };
  backoff?: BackoffOptions;
  /** How many prints the trades ring keeps (default 500). */
  tradeCapacity?: number;
  /** Same-side prints whose times are within this many ms of an aggregate's first print merge (default 5). */
  aggregateMs?: number;
}

/** What `acquireOrderFlow` returns: the shared feed and the caller's own release (call it once, on unmount). */
export interface OrderFlowHandle {
  feed: OrderFlowFeed;
  release(): void;
}
