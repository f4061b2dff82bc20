import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paperAccounts, paperOrders } from '../../db/schema-paper';
import type { SimExchange } from '../market/catalogue';
import { accountId } from './engine';
import type { PaperRuntime } from './runtime';

/** What the order book needs of a resting order (market/book.ts `restingFromOrders`). */
export interface RestingRow {
  side: 'BUY' | 'SELL';
  price: string | null;
  qty: string;
  filledQty: string;
  status: string;
}

const OPEN = ['NEW', 'PARTIALLY_FILLED'];
/** A bound on the rows one read brings (the book shows them summed into at most 1,000 levels a side). */
const MAX_ROWS = 5000;

/**
 * The paper accounts' resting limit orders for the public order books, from every instance on the
 * database: the accounts this instance has loaded come from its engines (current to the call), the
 * others from `paper_orders` (one query per exchange, at most once per interval and only while a book
 * is asked for; the answer in between is the last one read).
 */
export class PaperResting {
  private readonly cache = new Map<SimExchange, Array<RestingRow & { account: string; symbol: string }>>();
  private readonly readAt = new Map<SimExchange, number>();
  private readonly reading = new Map<SimExchange, Promise<void>>();

  constructor(private readonly opts: { runtimes: ReadonlyMap<SimExchange, PaperRuntime>; db?: Db; intervalMs: number }) {}

  orders(exchange: SimExchange, symbol: string): RestingRow[] {
    const runtime = this.opts.runtimes.get(exchange);
    const loaded = new Set(runtime?.engine.ids() ?? []);
    const own = runtime ? [...loaded].flatMap((id) => runtime.engine.openOrders(id, symbol)) : [];
    if (!this.opts.db) return own;
    if (Date.now() - (this.readAt.get(exchange) ?? -Infinity) >= this.opts.intervalMs) void this.refresh(exchange).catch(() => undefined);
    const others = (this.cache.get(exchange) ?? []).filter((o) => o.symbol === symbol && !loaded.has(o.account));
    return [...own, ...others];
  }

  /** Reads the exchange's open limit orders of every account (the next read starts once this one ends). */
  refresh(exchange: SimExchange): Promise<void> {
    const db = this.opts.db;
    if (!db) return Promise.resolve();
    const running = this.reading.get(exchange);
    if (running) return running;
    this.readAt.set(exchange, Date.now());
    const read = (async () => {
      const rows = await db
        .select({ apiKey: paperAccounts.apiKey, network: paperAccounts.network, symbol: paperOrders.symbol, side: paperOrders.side, price: paperOrders.price, qty: paperOrders.qty, filledQty: paperOrders.filledQty, status: paperOrders.status })
        .from(paperOrders)
        .innerJoin(paperAccounts, eq(paperAccounts.id, paperOrders.accountId))
        .where(and(eq(paperAccounts.exchange, exchange), inArray(paperOrders.status, OPEN), isNotNull(paperOrders.price)))
        .limit(MAX_ROWS);
      this.cache.set(
        exchange,
        rows.map((r) => ({
          account: accountId({ exchange, network: r.network === 'TESTNET' ? 'TESTNET' : 'MAINNET', apiKey: r.apiKey }),
          symbol: r.symbol,
          side: r.side === 'SELL' ? 'SELL' : 'BUY',
          price: r.price,
          qty: r.qty,
          filledQty: r.filledQty,
          status: r.status,
        })),
      );
    })().finally(() => this.reading.delete(exchange));
    this.reading.set(exchange, read);
    return read;
  }
}
