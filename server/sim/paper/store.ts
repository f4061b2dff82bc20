import { and, asc, desc, eq, gt, gte, inArray, lt, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { paperAccounts, paperBalances, paperEvents, paperFills, paperOrders, paperPositions, paperSettings } from '../../db/schema-paper';
import { exactFixed, fixed } from './engine/decimal';
import type { AccountKey, AccountSnapshot, ChangeSet, EngineEvent, FillRecord, MarginMode, OrderRecord, OrderRef } from './engine';

/** How many closed orders a loaded account keeps in memory (the engine's duplicate-id window). */
const LOAD_CLOSED = 500;
const OPEN_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED'];

/** Another writer committed first (a second instance on the same database): reload and retry. */
export class VersionConflict extends Error {
  constructor() {
    super('paper account changed underneath (another writer)');
  }
}

/** Where a commit with events is announced (`pg_notify`, in the commit's transaction): the payload is a PaperNotice. */
export const PAPER_EVENTS_CHANNEL = 'paper_events';

/** What a commit announces: the account (store id and key), its new version and the id of its events row. */
export interface PaperNotice {
  /** paper_accounts.id */
  account: string;
  key: AccountKey;
  version: number;
  eventId: number;
}

/** One committed change set's events, as another instance reads them. */
export interface StoredEvents {
  id: number;
  version: number;
  events: EngineEvent[];
}

export interface Committed {
  version: number;
  /** The paper_events row of the commit's events (null: it had none). */
  eventId: number | null;
}

export interface StoredAccount {
  dbId: string;
  version: number;
  snapshot: AccountSnapshot;
}

export interface HistoryQuery {
  symbol?: string;
  /** Ids ≥ fromId. */
  fromId?: number;
  startTime?: number;
  endTime?: number;
  limit: number;
  /** Newest first instead of oldest first. */
  newest?: boolean;
}

/** numeric → the shortest exact decimal ("10000.000000000000000000" → "10000"). */
const dec = (v: string): string => exactFixed(fixed(v));
const decOrNull = (v: string | null): string | null => (v === null ? null : dec(v));
const ms = (d: Date | null): number | null => (d === null ? null : d.getTime());

/** `set` for an upsert: every listed column takes the proposed row's value. */
function excluded<T extends PgTable>(table: T, columns: Array<keyof T['_']['columns'] & string>): Record<string, SQL> {
  const cols = (table as unknown as Record<string, PgColumn>);
  return Object.fromEntries(columns.map((c) => [c, sql.raw(`excluded."${cols[c].name}"`)]));
}

/**
 * The paper exchange's persistence: lazy account creation, loading a snapshot for the engine,
 * one transaction per engine change set (guarded by a version number), and the history queries
 * venues answer from (all orders, fills).
 */
export class PaperStore {
  constructor(private readonly db: Db) {}

  async load(key: AccountKey): Promise<StoredAccount | null> {
    const [row] = await this.db
      .select()
      .from(paperAccounts)
      .where(and(eq(paperAccounts.apiKey, key.apiKey), eq(paperAccounts.exchange, key.exchange), eq(paperAccounts.network, key.network)));
    if (!row) return null;
    const id = row.id;
    const [balances, settings, positions, open, closed] = await Promise.all([
      this.db.select().from(paperBalances).where(eq(paperBalances.accountId, id)),
      this.db.select().from(paperSettings).where(eq(paperSettings.accountId, id)),
      this.db.select().from(paperPositions).where(eq(paperPositions.accountId, id)),
      this.db.select().from(paperOrders).where(and(eq(paperOrders.accountId, id), inArray(paperOrders.status, OPEN_STATUSES))),
      this.db
        .select()
        .from(paperOrders)
        .where(and(eq(paperOrders.accountId, id), notInArray(paperOrders.status, OPEN_STATUSES)))
        .orderBy(desc(paperOrders.updatedAt), desc(paperOrders.orderId))
        .limit(LOAD_CLOSED),
    ]);
    return {
      dbId: id,
      version: row.version,
      snapshot: {
        asOf: row.asOf.getTime(),
        nextId: row.nextId,
        balances: balances.map((b) => ({ currency: b.currency, wallet: dec(b.wallet) })),
        settings: settings.map((s) => ({ symbol: s.symbol, leverage: s.leverage, marginMode: s.marginMode as MarginMode })),
        positions: positions.map((p) => ({
          symbol: p.symbol,
          size: dec(p.size),
          cost: dec(p.cost),
          isolatedMargin: dec(p.isolatedMargin),
          openFees: dec(p.openFees),
          realisedPnl: dec(p.realisedPnl),
          updatedAt: p.updatedAt.getTime(),
        })),
        orders: [...open, ...closed].map(orderFromRow).sort((a, b) => a.id - b.id),
      },
    };
  }

  /** Creates the account with `snapshot` unless it exists (two instances may race), then loads it. */
  async create(key: AccountKey, snapshot: AccountSnapshot): Promise<StoredAccount> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(paperAccounts)
        .values({ ...key, asOf: new Date(snapshot.asOf), nextId: snapshot.nextId })
        .onConflictDoNothing()
        .returning({ id: paperAccounts.id });
      if (row && snapshot.balances.length) {
        await tx.insert(paperBalances).values(snapshot.balances.map((b) => ({ accountId: row.id, currency: b.currency, wallet: b.wallet })));
      }
    });
    const loaded = await this.load(key);
    if (!loaded) throw new Error('paper account vanished right after it was created');
    return loaded;
  }

  /** Deletes the account and everything it holds (the next use creates it afresh). */
  async remove(key: AccountKey): Promise<boolean> {
    const rows = await this.db
      .delete(paperAccounts)
      .where(and(eq(paperAccounts.apiKey, key.apiKey), eq(paperAccounts.exchange, key.exchange), eq(paperAccounts.network, key.network)))
      .returning({ id: paperAccounts.id });
    return rows.length > 0;
  }

  /** The account's stored version (one primary-key lookup); null when it is gone (reset elsewhere). */
  async version(dbId: string): Promise<number | null> {
    const [row] = await this.db.select({ version: paperAccounts.version }).from(paperAccounts).where(eq(paperAccounts.id, dbId));
    return row ? row.version : null;
  }

  /** The stored versions of several accounts (the runner's one check per tick); a missing id is gone. */
  async versions(dbIds: string[]): Promise<Map<string, number>> {
    if (!dbIds.length) return new Map();
    const rows = await this.db.select({ id: paperAccounts.id, version: paperAccounts.version }).from(paperAccounts).where(inArray(paperAccounts.id, dbIds));
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  /**
   * Writes one change set atomically and, with `events`, its events row and the notice to the other
   * instances (delivered if and only if it commits). Throws VersionConflict if another writer was first.
   * `c` null: only events (the version is still bumped, which orders them among the account's commits).
   */
  async commit(dbId: string, version: number, c: ChangeSet | null, events?: { key: AccountKey; events: EngineEvent[] }): Promise<Committed> {
    return this.db.transaction(async (tx) => {
      const bumped = await tx
        .update(paperAccounts)
        .set({ ...(c ? { asOf: new Date(c.asOf), nextId: c.nextId } : {}), version: version + 1, updatedAt: new Date() })
        .where(and(eq(paperAccounts.id, dbId), eq(paperAccounts.version, version)))
        .returning({ version: paperAccounts.version });
      if (bumped.length === 0) throw new VersionConflict();
      const next = bumped[0].version;
      let eventId: number | null = null;
      if (events?.events.length) {
        const [row] = await tx.insert(paperEvents).values({ accountId: dbId, version: next, payload: events.events }).returning({ id: paperEvents.id });
        eventId = row.id;
        const notice: PaperNotice = { account: dbId, key: events.key, version: next, eventId };
        await tx.execute(sql`select pg_notify(${PAPER_EVENTS_CHANNEL}, ${JSON.stringify(notice)})`);
      }
      if (!c) return { version: next, eventId };
      if (c.balances.length) {
        await tx
          .insert(paperBalances)
          .values(c.balances.map((b) => ({ accountId: dbId, currency: b.currency, wallet: b.wallet })))
          .onConflictDoUpdate({ target: [paperBalances.accountId, paperBalances.currency], set: excluded(paperBalances, ['wallet']) });
      }
      if (c.settings.length) {
        await tx
          .insert(paperSettings)
          .values(c.settings.map((s) => ({ accountId: dbId, ...s })))
          .onConflictDoUpdate({ target: [paperSettings.accountId, paperSettings.symbol], set: excluded(paperSettings, ['leverage', 'marginMode']) });
      }
      if (c.positions.length) {
        await tx
          .insert(paperPositions)
          .values(c.positions.map((p) => ({ accountId: dbId, ...p, updatedAt: new Date(p.updatedAt) })))
          .onConflictDoUpdate({
            target: [paperPositions.accountId, paperPositions.symbol],
            set: excluded(paperPositions, ['size', 'cost', 'isolatedMargin', 'openFees', 'realisedPnl', 'updatedAt']),
          });
      }
      if (c.orders.length) {
        await tx
          .insert(paperOrders)
          .values(c.orders.map((o) => orderToRow(dbId, o)))
          .onConflictDoUpdate({
            target: [paperOrders.accountId, paperOrders.orderId],
            set: excluded(paperOrders, ['qty', 'filledQty', 'price', 'triggerPrice', 'status', 'triggeredAt', 'releasedId', 'sumPriceQty', 'fee', 'realisedPnl', 'reason', 'meta', 'updatedAt']),
          });
      }
      if (c.fills.length) await tx.insert(paperFills).values(c.fills.map(({ id, ...f }) => ({ accountId: dbId, fillId: id, ...f, time: new Date(f.time) })));
      return { version: next, eventId };
    });
  }

  /** The newest events row's id (0 if none): where an instance that starts listening begins. */
  async lastEventId(): Promise<number> {
    const [row] = await this.db.select({ id: sql<string | null>`max(${paperEvents.id})` }).from(paperEvents);
    return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
  }

  /** The account's events rows after `afterId`, oldest first. */
  async eventsAfter(dbId: string, afterId: number): Promise<StoredEvents[]> {
    const rows = await this.db
      .select({ id: paperEvents.id, version: paperEvents.version, payload: paperEvents.payload })
      .from(paperEvents)
      .where(and(eq(paperEvents.accountId, dbId), gt(paperEvents.id, afterId)))
      .orderBy(asc(paperEvents.id));
    return rows.map((r) => ({ id: r.id, version: r.version, events: r.payload as EngineEvent[] }));
  }

  /** The accounts of `exchange` with events rows after `afterId` (catching up after a dropped listener). */
  async accountsWithEventsAfter(exchange: string, afterId: number): Promise<Array<{ dbId: string; key: AccountKey }>> {
    const rows = await this.db
      .selectDistinct({ dbId: paperAccounts.id, apiKey: paperAccounts.apiKey, exchange: paperAccounts.exchange, network: paperAccounts.network })
      .from(paperEvents)
      .innerJoin(paperAccounts, eq(paperAccounts.id, paperEvents.accountId))
      .where(and(eq(paperAccounts.exchange, exchange), gt(paperEvents.id, afterId)));
    return rows.map((r) => ({ dbId: r.dbId, key: { apiKey: r.apiKey, exchange: r.exchange, network: r.network as AccountKey['network'] } }));
  }

  /** Deletes events rows older than `ms` (every instance has long read them). */
  async pruneEvents(ms: number): Promise<void> {
    await this.db.delete(paperEvents).where(lt(paperEvents.createdAt, sql`now() - make_interval(secs => ${ms / 1000})`));
  }

  async order(dbId: string, ref: OrderRef): Promise<OrderRecord | null> {
    const where = 'id' in ref ? eq(paperOrders.orderId, ref.id) : eq(paperOrders.clientId, ref.clientId);
    const [row] = await this.db.select().from(paperOrders).where(and(eq(paperOrders.accountId, dbId), where)).orderBy(desc(paperOrders.orderId)).limit(1);
    return row ? orderFromRow(row) : null;
  }

  /** Orders by engine id or by the id a fired trigger released (venues that show it as the order's id). */
  async ordersByIds(dbId: string, ids: number[]): Promise<OrderRecord[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .select()
      .from(paperOrders)
      .where(and(eq(paperOrders.accountId, dbId), or(inArray(paperOrders.orderId, ids), inArray(paperOrders.releasedId, ids))));
    return rows.map(orderFromRow);
  }

  async orders(dbId: string, q: HistoryQuery): Promise<OrderRecord[]> {
    const where = [eq(paperOrders.accountId, dbId)];
    if (q.symbol) where.push(eq(paperOrders.symbol, q.symbol));
    if (q.fromId !== undefined) where.push(gte(paperOrders.orderId, q.fromId));
    if (q.startTime !== undefined) where.push(gte(paperOrders.createdAt, new Date(q.startTime)));
    if (q.endTime !== undefined) where.push(lte(paperOrders.createdAt, new Date(q.endTime)));
    const rows = await this.db
      .select()
      .from(paperOrders)
      .where(and(...where))
      .orderBy(q.newest ? desc(paperOrders.orderId) : asc(paperOrders.orderId))
      .limit(q.limit);
    return rows.map(orderFromRow);
  }

  async fills(dbId: string, q: HistoryQuery & { orderId?: number }): Promise<FillRecord[]> {
    const where = [eq(paperFills.accountId, dbId)];
    if (q.symbol) where.push(eq(paperFills.symbol, q.symbol));
    if (q.orderId !== undefined) where.push(eq(paperFills.orderId, q.orderId));
    if (q.fromId !== undefined) where.push(gte(paperFills.fillId, q.fromId));
    if (q.startTime !== undefined) where.push(gte(paperFills.time, new Date(q.startTime)));
    if (q.endTime !== undefined) where.push(lte(paperFills.time, new Date(q.endTime)));
    const rows = await this.db
      .select()
      .from(paperFills)
      .where(and(...where))
      .orderBy(q.newest ? desc(paperFills.fillId) : asc(paperFills.fillId))
      .limit(q.limit);
    return rows.map((r) => ({
      id: r.fillId,
      orderId: r.orderId,
      symbol: r.symbol,
      side: r.side as FillRecord['side'],
      qty: dec(r.qty),
      price: dec(r.price),
      fee: dec(r.fee),
      feeCurrency: r.feeCurrency,
      realisedPnl: dec(r.realisedPnl),
      maker: r.maker,
      liquidation: r.liquidation,
      time: r.time.getTime(),
    }));
  }
}

type OrderRow = typeof paperOrders.$inferSelect;

function orderToRow(accountId: string, o: OrderRecord): typeof paperOrders.$inferInsert {
  return {
    accountId,
    orderId: o.id,
    clientId: o.clientId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    postOnly: o.postOnly,
    reduceOnly: o.reduceOnly,
    closePosition: o.closePosition,
    qty: o.qty,
    filledQty: o.filledQty,
    price: o.price,
    triggerPrice: o.trigger,
    triggerDirection: o.triggerDirection,
    status: o.status,
    triggeredAt: o.triggeredAt === null ? null : new Date(o.triggeredAt),
    releasedId: o.releasedId,
    sumPriceQty: o.sumPriceQty,
    fee: o.fee,
    realisedPnl: o.realisedPnl,
    reason: o.reason,
    meta: o.meta,
    createdAt: new Date(o.createdAt),
    updatedAt: new Date(o.updatedAt),
  };
}

function orderFromRow(r: OrderRow): OrderRecord {
  return {
    id: r.orderId,
    clientId: r.clientId,
    symbol: r.symbol,
    side: r.side as OrderRecord['side'],
    type: r.type as OrderRecord['type'],
    timeInForce: r.timeInForce as OrderRecord['timeInForce'],
    postOnly: r.postOnly,
    reduceOnly: r.reduceOnly,
    closePosition: r.closePosition,
    qty: dec(r.qty),
    filledQty: dec(r.filledQty),
    price: decOrNull(r.price),
    trigger: decOrNull(r.triggerPrice),
    triggerDirection: r.triggerDirection as OrderRecord['triggerDirection'],
    status: r.status as OrderRecord['status'],
    triggeredAt: ms(r.triggeredAt),
    releasedId: r.releasedId,
    sumPriceQty: dec(r.sumPriceQty),
    fee: dec(r.fee),
    realisedPnl: dec(r.realisedPnl),
    reason: r.reason,
    meta: r.meta,
    createdAt: r.createdAt.getTime(),
    updatedAt: r.updatedAt.getTime(),
  };
}
