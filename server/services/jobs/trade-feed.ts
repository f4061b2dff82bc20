import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { OpenSocket } from '../../exchanges/private-stream';
import { TRADE_STREAMS, type TradePrint } from '../../exchanges/trade-streams';
import { TradeSocket } from './trade-socket';

/** One print of a pair, by the product's symbol (`BTCUSDT`, `XBTUSD`); `time` is the exchange's (ms). */
export interface TradeTick {
  symbol: string;
  price: number;
  time: number;
}

export interface TradeFeedWatcher {
  /** Prints as they arrive; `at` is when they were heard (this server's clock). */
  onTrades(ticks: TradeTick[], at: number): void;
  /** Every wanted pair is (true) or is not (false) being heard: a gap must be caught up from candles. */
  onLive?(live: boolean): void;
}

/** A watcher's hold on a network's trades: the pairs it wants now (replacing the last call's), then stop. */
export interface TradeWatch {
  want(symbols: Iterable<string>): void;
  stop(): void;
}

export interface TradeFeedOptions {
  instruments: (exchange: ExchangeId, network: Network) => Promise<Instrument[]>;
  /** Opens a socket at a path below the network's public WebSocket root (live host, or the simulator in-process). */
  open: (exchange: ExchangeId, network: Network) => OpenSocket;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
  /** A wanted pair missing from the instrument list is looked up again after this long (default 60 s). */
  relistMs?: number;
}

interface Entry {
  exchange: ExchangeId;
  network: Network;
  watchers: Map<TradeFeedWatcher, Set<string>>;
  instruments: Map<string, Instrument> | null;
  listedAt: number;
  listing: boolean;
  sockets: TradeSocket[];
  live: boolean;
}

const keyOf = (exchange: ExchangeId, network: Network) => `${exchange}:${network}`;

/**
 * The public trade streams of the pairs the server's jobs watch (issue 26 §3), per exchange and
 * network: only the pairs some watcher wants, packed onto as few connections as the exchange allows
 * (`TRADE_STREAMS[exchange].perConnection`), subscribed and unsubscribed as the wanted pairs change,
 * every connection closed when nothing is wanted. Every print is heard, not one price a second.
 */
export class TradeFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly opts: TradeFeedOptions) {
    this.now = opts.now ?? Date.now;
  }

  watch(exchange: ExchangeId, network: Network, watcher: TradeFeedWatcher): TradeWatch {
    const key = keyOf(exchange, network);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { exchange, network, watchers: new Map(), instruments: null, listedAt: 0, listing: false, sockets: [], live: true };
      this.entries.set(key, entry);
    }
    const e = entry;
    e.watchers.set(watcher, new Set());
    watcher.onLive?.(e.live);
    return {
      want: (symbols) => {
        if (!e.watchers.has(watcher)) return;
        e.watchers.set(watcher, new Set(symbols));
        this.sync(e);
      },
      stop: () => {
        e.watchers.delete(watcher);
        if (e.watchers.size === 0) this.drop(key, e);
        else this.sync(e);
      },
    };
  }

  /** Pairs subscribed on a network (tests, diagnostics). */
  subscribed(exchange: ExchangeId, network: Network): string[] {
    const e = this.entries.get(keyOf(exchange, network));
    return e ? e.sockets.flatMap((s) => [...s.pairs.values()].map((i) => i.symbol)).sort() : [];
  }

  /** Open connections on a network. */
  connections(exchange: ExchangeId, network: Network): number {
    return this.entries.get(keyOf(exchange, network))?.sockets.length ?? 0;
  }

  close(): void {
    this.closed = true;
    for (const [key, e] of this.entries) this.drop(key, e);
  }

  private drop(key: string, e: Entry): void {
    for (const s of e.sockets) s.stop();
    e.sockets = [];
    if (this.entries.get(key) === e) this.entries.delete(key);
  }

  private wanted(e: Entry): Set<string> {
    const out = new Set<string>();
    for (const set of e.watchers.values()) for (const s of set) out.add(s);
    return out;
  }

  private sync(e: Entry): void {
    if (this.closed || this.entries.get(keyOf(e.exchange, e.network)) !== e) return;
    const wanted = this.wanted(e);
    const known = e.instruments;
    const unknown = [...wanted].some((s) => !known?.has(s));
    if (unknown && !e.listing && (!known || this.now() - e.listedAt >= (this.opts.relistMs ?? 60_000))) void this.list(e);
    if (known) this.place(e, wanted, known);
    this.updateLive(e);
  }

  private async list(e: Entry): Promise<void> {
    e.listing = true;
    try {
      const list = await this.opts.instruments(e.exchange, e.network);
      e.instruments = new Map(list.map((i) => [i.symbol, i]));
    } catch (err) {
      this.opts.log?.warn({ err, exchange: e.exchange, network: e.network }, 'Trade feed: the instrument list could not be read');
    } finally {
      e.listedAt = this.now();
      e.listing = false;
    }
    this.sync(e);
  }

  /** Unsubscribes pairs no longer wanted (closing emptied sockets), subscribes new ones where there is room. */
  private place(e: Entry, wanted: Set<string>, known: Map<string, Instrument>): void {
    const stream = TRADE_STREAMS[e.exchange];
    for (const s of e.sockets) s.remove([...s.pairs.values()].filter((i) => !wanted.has(i.symbol)).map((i) => i.exchangeSymbol));
    const emptied = e.sockets.filter((x) => x.pairs.size === 0);
    e.sockets = e.sockets.filter((x) => x.pairs.size > 0);
    for (const s of emptied) s.stop();
    const held = new Set(e.sockets.flatMap((s) => [...s.pairs.values()].map((i) => i.symbol)));
    const byPath = new Map<string, Instrument[]>();
    for (const symbol of wanted) {
      const inst = known.get(symbol);
      if (!inst || held.has(symbol)) continue;
      const path = stream.path(inst);
      byPath.set(path, [...(byPath.get(path) ?? []), inst]);
    }
    for (const [path, insts] of byPath) {
      let rest = insts;
      for (const s of e.sockets) {
        if (!rest.length) break;
        if (s.path !== path || s.room <= 0) continue;
        s.add(rest.slice(0, s.room));
        rest = rest.slice(s.room);
      }
      while (rest.length) {
        const s = this.socket(e, path);
        e.sockets.push(s);
        s.add(rest.slice(0, stream.perConnection));
        rest = rest.slice(stream.perConnection);
      }
    }
  }

  private socket(e: Entry, path: string): TradeSocket {
    const s: TradeSocket = new TradeSocket({
      stream: TRADE_STREAMS[e.exchange],
      path,
      // Async: an opener that throws (no simulator socket in this mode) is a failed connection, retried.
      open: async (at) => this.opts.open(e.exchange, e.network)(at),
      onPrints: (prints) => this.deliver(e, s, prints),
      onLive: () => this.updateLive(e),
      onError: (err) => this.opts.log?.warn({ err, exchange: e.exchange, network: e.network }, 'Trade feed error'),
    });
    return s;
  }

  private deliver(e: Entry, s: TradeSocket, prints: TradePrint[]): void {
    const ticks: TradeTick[] = [];
    for (const p of prints) {
      const inst = s.pairs.get(p.exchangeSymbol);
      if (inst) ticks.push({ symbol: inst.symbol, price: p.price, time: p.time });
    }
    if (!ticks.length) return;
    const at = this.now();
    for (const w of e.watchers.keys()) w.onTrades(ticks, at);
  }

  /** Live: every wanted pair's socket is connected (nothing wanted is live; an unreadable instrument list is not). */
  private updateLive(e: Entry): void {
    const wanted = this.wanted(e).size > 0;
    const live = !wanted || (e.instruments !== null && e.sockets.every((s) => s.isLive()));
    if (live === e.live) return;
    e.live = live;
    for (const w of e.watchers.keys()) w.onLive?.(live);
  }
}
