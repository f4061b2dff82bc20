import { and, asc, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paperEvents } from '../../db/schema-paper';
import type { SimExchange } from '../market/catalogue';
import { MINUTE_MS } from '../market/intervals';
import type { SimMarket } from '../market/market';
import type { Print, PrintSource } from '../market/prints';
import type { EngineEvent } from './engine';
import type { PaperRuntime } from './runtime';

/** How long prints are kept (market time): the REST trades endpoints look back five minutes. */
const KEEP_MS = 10 * MINUTE_MS;
/** Rows read per query (the next read goes on from the last one). */
const BATCH = 500;
/**
 * Every read also re-reads the rows of the last seconds: ids are taken before a transaction commits,
 * so a row with a smaller id may become visible after a larger one was read (duplicates are ignored).
 */
const OVERLAP_S = 10;

export interface PaperPrintsOptions {
  market: SimMarket;
  /** This instance's runtimes: their fills print at once (their events, own commits and those heard from others). */
  runtimes: Iterable<PaperRuntime>;
  /** A database shared with other instances: their fills are read from paper_events. Without one, only this instance's. */
  db?: Db;
  /** At most one read per interval (the streams' push interval). */
  intervalMs: number;
}

/**
 * The paper accounts' fills as public prints (market/prints.ts), for every account of every network
 * and every instance on the database. This instance's fills are added from its runtimes' events as
 * they are published; the other instances' are read from paper_events (the commit's events: one
 * small query for every exchange and symbol, by increasing id), at most once per interval and only
 * while someone asks (a trade stream polling, a REST trades call) — no reads when nobody looks.
 * Liquidations (closed at the bankruptcy price by the simulated insurance fund) do not print.
 */
export class PaperPrints implements PrintSource {
  private readonly byInstrument = new Map<string, Print[]>();
  private readonly keys = new Map<string, number>();
  private readonly unsubscribe: Array<() => void> = [];
  private cursor = 0;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly opts: PaperPrintsOptions) {
    for (const runtime of opts.runtimes) this.unsubscribe.push(runtime.subscribe((_key, events) => this.addEvents(events)));
  }

  prints(exchange: SimExchange, symbol: string, after: number, until: number): Print[] {
    if (this.opts.db && Date.now() - this.readAt >= this.opts.intervalMs) void this.refresh().catch(() => undefined);
    const list = this.byInstrument.get(`${exchange}:${symbol}`);
    if (!list?.length) return [];
    return list.filter((p) => p.time > after && p.time <= until);
  }

  refresh(): Promise<void> {
    const db = this.opts.db;
    if (!db || this.closed) return Promise.resolve();
    if (this.reading) return this.reading;
    if (Date.now() - this.readAt < this.opts.intervalMs) return Promise.resolve();
    this.readAt = Date.now();
    this.reading = this.read(db).finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  close(): void {
    this.closed = true;
    for (const stop of this.unsubscribe) stop();
  }

  private async read(db: Db): Promise<void> {
    for (let pass = 0; pass < 10; pass++) {
      const rows = await db
        .select({ id: paperEvents.id, payload: paperEvents.payload })
        .from(paperEvents)
        .where(
          and(
            or(gt(paperEvents.id, this.cursor), sql`${paperEvents.createdAt} > now() - make_interval(secs => ${OVERLAP_S})`),
            sql`${paperEvents.payload} @> '[{"exec":"fill"}]'::jsonb`,
          ),
        )
        .orderBy(asc(paperEvents.id))
        .limit(BATCH);
      for (const r of rows) {
        this.addEvents(r.payload as EngineEvent[]);
        if (r.id > this.cursor) this.cursor = r.id;
      }
      if (rows.length < BATCH) return;
    }
  }

  private addEvents(events: EngineEvent[]): void {
    let added = false;
    for (const e of events) {
      if (e.type !== 'order' || !e.fill || e.fill.liquidation) continue;
      const exchange = e.account.slice(0, e.account.indexOf('|')) as SimExchange;
      const inst = this.opts.market.instrument(exchange, e.fill.symbol);
      if (!inst) continue;
      const key = `${e.account}|${e.fill.id}`;
      if (this.keys.has(key) || e.fill.time < this.opts.market.now() - KEEP_MS) continue;
      const model = this.opts.market.model(inst);
      const side = e.fill.maker ? (e.fill.side === 'BUY' ? 'SELL' : 'BUY') : e.fill.side;
      const print: Print = {
        key,
        time: e.fill.time,
        price: Math.round(Number(e.fill.price) / model.tick),
        steps: Math.round(Number(e.fill.qty) / model.step),
        buy: side === 'BUY',
      };
      if (print.steps <= 0 || print.price <= 0) continue;
      this.keys.set(key, print.time);
      const id = `${exchange}:${inst.symbol}`;
      let list = this.byInstrument.get(id);
      if (!list) this.byInstrument.set(id, (list = []));
      list.push(print);
      // Usually appended in order; a late one (another instance's) is sorted in.
      if (list.length > 1 && byTimeKey(list[list.length - 2], print) > 0) list.sort(byTimeKey);
      added = true;
    }
    if (added) this.prune();
  }

  /** Forgets prints older than KEEP_MS (market time). */
  private prune(): void {
    const horizon = this.opts.market.now() - KEEP_MS;
    for (const [id, list] of this.byInstrument) {
      let n = 0;
      while (n < list.length && list[n].time < horizon) n++;
      if (n) this.byInstrument.set(id, list.slice(n));
    }
    for (const [key, time] of this.keys) if (time < horizon) this.keys.delete(key);
  }
}

const byTimeKey = (a: Print, b: Print): number => a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
