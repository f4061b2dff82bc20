import type { ExchangeEndpoints } from '../../contracts/config';
import { inferCategory } from '../symbols';
import { OrderFlowFeedImpl } from './feed';
import type { OrderFlowHandle, OrderFlowKey, OrderFlowOptions } from './types';

interface Entry {
  feed: OrderFlowFeedImpl;
  refs: number;
  /** Set while nobody holds the feed: it closes when this fires unless acquired again. */
  linger?: ReturnType<typeof setTimeout>;
}

/**
 * How long a feed nobody holds stays open: a panel that lets go and takes the same pair again in the
 * same commit (an effect re-run, a tab moved to another tabset) keeps its book and socket.
 */
const LINGER_MS = 1_000;

const feeds = new Map<string, Entry>();

/** Only Bybit streams per category (`/v5/public/linear|inverse`); elsewhere the pair alone decides. */
function normalised(key: OrderFlowKey): OrderFlowKey {
  const { exchange, symbol, testnet } = key;
  return exchange === 'bybit' ? { exchange, symbol, testnet, category: key.category ?? inferCategory(exchange, symbol) } : { exchange, symbol, testnet };
}

/** The registry's id of a key: panels that pass the same pair share one feed, with or without `category`. */
export function orderFlowKeyId(key: OrderFlowKey): string {
  const k = normalised(key);
  return `${k.exchange}|${k.symbol}|${k.testnet ? 'testnet' : 'mainnet'}|${k.category ?? ''}`;
}

/**
 * The shared feed of one exchange + pair + network (issue 25 §2: one stream per exchange and pair,
 * however many panels show it). The first acquirer opens it with its `endpoints` (`GET /v1/config`'s
 * for the exchange) and options; each caller releases its own handle once; the last release closes the
 * sockets and timers (after a second: see `LINGER_MS`). A later acquirer's `tickSize` updates the shared one.
 */
export function acquireOrderFlow(key: OrderFlowKey, endpoints: ExchangeEndpoints, options: OrderFlowOptions = {}): OrderFlowHandle {
  const id = orderFlowKeyId(key);
  let entry = feeds.get(id);
  if (!entry) {
    entry = { feed: new OrderFlowFeedImpl(normalised(key), endpoints, options), refs: 0 };
    feeds.set(id, entry);
  } else if (options.tickSize) entry.feed.setTickSize(options.tickSize);
  clearTimeout(entry.linger);
  entry.linger = undefined;
  entry.refs += 1;
  const held = entry;
  let released = false;
  return {
    feed: held.feed,
    release() {
      if (released) return;
      released = true;
      held.refs -= 1;
      if (held.refs > 0) return;
      held.linger = setTimeout(() => {
        if (held.refs > 0) return;
        held.feed.close();
        if (feeds.get(id) === held) feeds.delete(id);
      }, LINGER_MS);
    },
  };
}

/** How many feeds are open (tests: every panel released its feed). */
export function openOrderFlowCount(): number {
  return feeds.size;
}
