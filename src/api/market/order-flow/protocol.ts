import type { FetchLike } from '../http';
import type { HeartbeatStrategy } from '../ws-connection';
import type { LocalBook } from './local-book';
import type { TradeRing } from './trade-ring';
import type { OrderFlowKey } from './types';

/** What an exchange's protocol drives in the feed it belongs to. */
export interface FeedSink {
  readonly book: LocalBook;
  readonly trades: TradeRing;
  readonly fetch: FetchLike;
  /** A snapshot was applied: the book is in sync again (status `live`). */
  synced(): void;
  /** An update was applied to the book (or trades were added): repaint on the next frame. */
  changed(): void;
  /**
   * The book cannot be trusted (`gap`: a sequence break or an impossible change; `checksum`: OKX's CRC
   * disagreed): counted, status `resyncing`. The protocol then rebuilds from a snapshot.
   */
  broken(kind: 'gap' | 'checksum', note: string): void;
  /** The exchange refused (an unknown pair): status `error` with its words. */
  refused(message: string): void;
}

/**
 * One socket of an exchange's order flow: where it connects, what it subscribes, how it reads frames
 * into the sink. `open` runs on every (re)connection and starts the sync afresh. `book: true` marks the
 * socket the book comes from: its drop is the feed's `reconnecting` (Binance reads trades on a second
 * socket, `/market`, beside the depth on `/public`).
 */
export interface OrderFlowSocket {
  url: string;
  heartbeat: HeartbeatStrategy;
  isPong?: (text: string) => boolean;
  book: boolean;
  open(send: (data: string) => void): void;
  message(text: string): void;
  /** Stops its timers (the feed is released). */
  close?(): void;
}

export interface ProtocolContext {
  key: OrderFlowKey;
  /** The exchange's own id for the pair (OKX instId). */
  wireSymbol: string;
  restBase: string;
  wsBase: string;
  sink: FeedSink;
}

/** Parses a frame, or undefined when it is not JSON (`pong`, a welcome line). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `[price, size, …]` rows as the exchanges send them (strings); anything else is skipped. */
export function applyRows(book: LocalBook, side: 0 | 1, rows: unknown): void {
  if (!Array.isArray(rows)) return;
  for (const row of rows) {
    if (Array.isArray(row) && typeof row[0] === 'string' && typeof row[1] === 'string') book.set(side, row[0], row[1]);
  }
}
