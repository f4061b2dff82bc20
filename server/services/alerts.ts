import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  ALERTS_ACTIVE_MAX,
  ALERTS_DISABLED_MESSAGE,
  ALERTS_TRIGGERED_KEPT,
  type Alert,
  type AlertStatus,
  type RearmAlertBody,
} from '../../src/api/contracts/alerts';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId, type Network } from '../../src/api/contracts/common';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { alerts, type AlertRow } from '../db/schema-alerts';
import { badRequest, conflict, forbidden, notFound } from '../lib/http-error';
import { isFeatureEnabled } from './feature-flags';
import { ensureJob } from './jobs/runner';
import { withEvents, type EventBus } from './events/bus';
import { insertNotifications, notificationLocks, pruneNotifications } from './notifications';
import type { NotificationRow } from '../db/schema-jobs';

/** The server-side evaluator of one exchange+network's alerts (services/jobs/alert-watch.ts) is this job. */
export const ALERT_JOB_KIND = 'alerts';
/**
 * `alerts:<exchange>` on MAINNET (the key every evaluator had before networks, so a deploy keeps its
 * progress), `alerts:<exchange>:testnet` on TESTNET.
 */
export const alertJobKey = (exchange: ExchangeId, network: Network = 'MAINNET') => `${ALERT_JOB_KIND}:${exchange}${network === 'TESTNET' ? ':testnet' : ''}`;

/** The exchange and network of an evaluator's job key, or null for a key that names none. */
export function alertJobTarget(key: string): { exchange: ExchangeId; network: Network } | null {
  const m = /^alerts:(binance|bitmex|bybit|okx)(:testnet)?$/.exec(key);
  return m ? { exchange: m[1] as ExchangeId, network: m[2] ? 'TESTNET' : 'MAINNET' } : null;
}

/** Wakes the exchange+network's evaluator (idempotent): called whenever an alert there becomes active or moves. */
export const ensureAlertJob = (db: Db, exchange: ExchangeId, network: Network) =>
  ensureJob(db, { kind: ALERT_JOB_KIND, key: alertJobKey(exchange, network) });

/** The `alert.active` event of an active alert's row (the evaluator watches that version at once). */
export const activeAlertEvent = (row: AlertRow) => ({
  id: row.id,
  userId: row.userId,
  exchange: row.exchange,
  network: row.network,
  symbol: row.symbol,
  initialPrice: row.initialPrice,
  triggerPrice: row.triggerPrice,
  updatedAt: row.updatedAt.getTime(),
});

/** What the routes pass in: the bodies after zod (symbol upper-cased, note trimmed). */
export interface NewAlert {
  exchange: ExchangeId;
  network: Network;
  symbol: string;
  initialPrice: number;
  triggerPrice: number;
  note?: string;
  drawingId?: string | null;
}
export interface AlertPatch {
  triggerPrice?: number;
  initialPrice?: number;
  note?: string | null;
  drawingId?: string | null;
}

const NOT_FOUND = 'Alert not found';
const limitReached = () =>
  conflict(`You can have at most ${ALERTS_ACTIVE_MAX} active alerts: delete some first`, { triggerPrice: `At most ${ALERTS_ACTIVE_MAX} active alerts` });

export const toAlertDto = (row: AlertRow): Alert => ({
  id: row.id,
  exchange: row.exchange,
  network: row.network,
  symbol: row.symbol,
  initialPrice: row.initialPrice,
  triggerPrice: row.triggerPrice,
  status: row.status,
  triggeredAt: row.triggeredAt?.toISOString() ?? null,
  triggeredPrice: row.triggeredPrice,
  note: row.note,
  drawingId: row.drawingId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** 403 while FF_ENABLE_ALERTS is off (checked on every alerts route, after authentication). */
export async function assertAlertsEnabled(db: Db): Promise<void> {
  if (!(await isFeatureEnabled(db, 'FF_ENABLE_ALERTS'))) throw forbidden(ALERTS_DISABLED_MESSAGE);
}

const owned = (userId: string, id: string) => and(eq(alerts.id, id), eq(alerts.userId, userId));
/** An empty note is no note. */
const noteValue = (note: string | null | undefined) => (note ? note : null);

/** Active alerts oldest first (the order they were set), then triggered ones newest first. */
export async function listAlerts(db: Db, userId: string, status?: AlertStatus): Promise<AlertRow[]> {
  const active =
    status === 'triggered'
      ? []
      : await db
          .select()
          .from(alerts)
          .where(and(eq(alerts.userId, userId), eq(alerts.status, 'active')))
          .orderBy(asc(alerts.createdAt), asc(alerts.id))
          .limit(ALERTS_ACTIVE_MAX);
  const triggered =
    status === 'active'
      ? []
      : await db
          .select()
          .from(alerts)
          .where(and(eq(alerts.userId, userId), eq(alerts.status, 'triggered')))
          .orderBy(desc(alerts.triggeredAt), desc(alerts.id))
          .limit(ALERTS_TRIGGERED_KEPT);
  return [...active, ...triggered];
}

/**
 * Runs `body` holding the user's row lock, so the active-alert count it checks cannot change under
 * it (two tabs creating at once must not both squeeze past the limit).
 */
async function withUserLock<T>(db: Db, userId: string, body: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return body(tx as unknown as Db);
  });
}

async function activeCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), eq(alerts.status, 'active')));
  return row?.n ?? 0;
}

export async function createAlert(db: Db, userId: string, body: NewAlert): Promise<AlertRow> {
  const row = await withUserLock(db, userId, async (tx) => {
    if ((await activeCount(tx, userId)) >= ALERTS_ACTIVE_MAX) throw limitReached();
    const [row] = await tx
      .insert(alerts)
      .values({
        userId,
        exchange: body.exchange,
        network: body.network,
        symbol: body.symbol,
        initialPrice: body.initialPrice,
        triggerPrice: body.triggerPrice,
        note: noteValue(body.note),
        drawingId: body.drawingId ?? null,
      })
      .returning();
    return row!;
  });
  await ensureAlertJob(db, row.exchange, row.network);
  return row;
}

export async function getAlert(db: Db, userId: string, id: string): Promise<AlertRow> {
  const [row] = await db.select().from(alerts).where(owned(userId, id)).limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Moves an active alert (new trigger + the price now as its initial price) and/or edits its note. */
export async function updateAlert(db: Db, userId: string, id: string, patch: AlertPatch): Promise<AlertRow> {
  const current = await getAlert(db, userId, id);
  const moving = patch.triggerPrice !== undefined;
  if (moving && current.status !== 'active') {
    throw conflict('This alert has already triggered: re-arm it to set a new trigger price', { triggerPrice: 'Re-arm the alert first' });
  }
  const [row] = await db
    .update(alerts)
    .set({
      ...(moving ? { triggerPrice: patch.triggerPrice, initialPrice: patch.initialPrice } : {}),
      ...(patch.note !== undefined ? { note: noteValue(patch.note) } : {}),
      ...(patch.drawingId !== undefined ? { drawingId: patch.drawingId } : {}),
      updatedAt: new Date(),
    })
    // A move applies only while still active: an alert that fired meanwhile is not silently re-armed.
    .where(and(owned(userId, id), moving ? eq(alerts.status, 'active') : undefined))
    .returning();
  if (!row) throw conflict('This alert has already triggered: re-arm it to set a new trigger price', { triggerPrice: 'Re-arm the alert first' });
  if (moving) await ensureAlertJob(db, row.exchange, row.network);
  return row;
}

export async function deleteAlert(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db.delete(alerts).where(owned(userId, id)).returning({ id: alerts.id });
  if (deleted.length === 0) throw notFound(NOT_FOUND);
}

export async function clearTriggeredAlerts(db: Db, userId: string): Promise<number> {
  const deleted = await db
    .delete(alerts)
    .where(and(eq(alerts.userId, userId), eq(alerts.status, 'triggered')))
    .returning({ id: alerts.id });
  return deleted.length;
}

/**
 * The crossing rule of `src/state/alerts.ts` `isAlertTriggered`, in SQL, so the server — not a tab
 * with a stale copy of a moved alert — has the last word: rising (initial < trigger) fires at
 * price ≥ trigger, falling at price ≤ trigger, equal only at price = trigger.
 */
export function crosses(price: number): SQL {
  return sql`(
    (${alerts.initialPrice} < ${alerts.triggerPrice} and ${price}::float8 >= ${alerts.triggerPrice})
    or (${alerts.initialPrice} > ${alerts.triggerPrice} and ${price}::float8 <= ${alerts.triggerPrice})
    or (${alerts.initialPrice} = ${alerts.triggerPrice} and ${price}::float8 = ${alerts.triggerPrice})
  )`;
}

/** Keeps the newest ALERTS_TRIGGERED_KEPT triggered alerts of the user. */
export async function pruneTriggered(db: Db, userId: string): Promise<void> {
  const stale = await db
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), eq(alerts.status, 'triggered')))
    .orderBy(desc(alerts.triggeredAt), desc(alerts.id))
    .offset(ALERTS_TRIGGERED_KEPT);
  if (stale.length) await db.delete(alerts).where(inArray(alerts.id, stale.map((s) => s.id)));
}

/** Makes an alert active again from the price now (keeping its trigger unless a new one is given). */
export async function rearmAlert(db: Db, userId: string, id: string, body: RearmAlertBody): Promise<AlertRow> {
  return withUserLock(db, userId, async (tx) => {
    const current = await getAlert(tx, userId, id);
    const triggerPrice = body.triggerPrice ?? current.triggerPrice;
    if (triggerPrice === body.initialPrice) {
      throw badRequest('Invalid triggerPrice: the trigger price must differ from the current price', { triggerPrice: 'The trigger price must differ from the current price' });
    }
    if (current.status !== 'active' && (await activeCount(tx, userId)) >= ALERTS_ACTIVE_MAX) throw limitReached();
    const [row] = await tx
      .update(alerts)
      .set({ status: 'active', initialPrice: body.initialPrice, triggerPrice, triggeredAt: null, triggeredPrice: null, updatedAt: new Date() })
      .where(owned(userId, id))
      .returning();
    return row!;
  }).then(async (row) => {
    await ensureAlertJob(db, row.exchange, row.network);
    return row;
  });
}

const priceText = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 10 });

/**
 * "BTCUSDT on binance rose to 65,000 (last 65,012.5) — breakout retest" (the app's own toast wording);
 * "… on binance testnet …" for a TESTNET alert.
 */
export function triggeredAlertText(row: AlertRow): string {
  const direction = row.initialPrice < row.triggerPrice ? 'rose to' : row.initialPrice > row.triggerPrice ? 'fell to' : 'reached';
  const last = row.triggeredPrice !== null ? ` (last ${priceText(row.triggeredPrice)})` : '';
  const where = `${EXCHANGE_DISPLAY_NAMES[row.exchange]}${row.network === 'TESTNET' ? ' testnet' : ''}`;
  return `${row.symbol} on ${where} ${direction} ${priceText(row.triggerPrice)}${last}${row.note ? ` — ${row.note}` : ''}`;
}

/**
 * The server's firing of an alert (issue 13): the active → triggered transition guarded by the
 * crossing rule and by the version the evaluator judged (`updatedAt`: a moved alert is not fired
 * from a stale copy), and the user's notification, in one transaction. Of any number of evaluators
 * (instances, a re-run after a crash) exactly one gets the row; the notification's dedupe key
 * (alert id + version) makes even a replayed insert add nothing. With `events`, the transaction also
 * publishes `notification.created` (the user's open tabs ring at once, issue 26).
 */
export async function fireAlert(
  db: Db,
  alert: { id: string; userId: string; updatedAt: Date },
  price: number,
  at: Date,
  events?: EventBus | null,
): Promise<{ row: AlertRow; notification: NotificationRow | null } | null> {
  return (await fireAlerts(db, [{ alert, price, at }], events))[0] ?? null;
}

/** One alert crossed: the version judged, at which price, when. */
export interface AlertCrossing {
  alert: { id: string; userId: string; updatedAt: Date };
  price: number;
  at: Date;
}

/**
 * `fireAlert` for several crossings at once (a burst of prints through many alerts, issue 26): one transaction
 * for all of them — one connection, the users' notification locks taken once — instead of one each. Answers the
 * alerts it fired (the others had moved, fired or been deleted already). Crossings of many users go in one
 * statement each (the update, the insert, the users' locks — taken in a fixed order, so two such transactions never
 * wait on each other in a circle — and their unread counts); the transaction holds those locks to its end.
 */
export async function fireAlerts(
  db: Db,
  crossings: readonly AlertCrossing[],
  events?: EventBus | null,
  opts: { prune?: boolean } = {},
): Promise<Array<{ row: AlertRow; notification: NotificationRow | null }>> {
  // One crossing per alert: of two versions of one alert queued together, the newer (the row holds only one).
  const byId = new Map<string, AlertCrossing>();
  for (const c of crossings) {
    const had = byId.get(c.alert.id);
    if (!had || had.alert.updatedAt.getTime() < c.alert.updatedAt.getTime()) byId.set(c.alert.id, c);
  }
  const list = [...byId.values()];
  if (!list.length) return [];
  const fired = await withEvents(db, events, async (tx, emit) => {
    // One statement for all of them (a burst fires dozens per user): each row judged by its own version and price.
    // It takes the users' notification locks first (`notificationLocks`), so the insert after it needs no trip of its own.
    const each = (part: (c: AlertCrossing) => SQL) => sql`case ${alerts.id} ${sql.join(list.map((c) => sql`when ${c.alert.id}::uuid then ${part(c)}`), sql` `)} end`;
    const users = [...new Set(list.map((c) => c.alert.userId))].sort();
    const updated = await tx
      .update(alerts)
      .set({ status: 'triggered', triggeredAt: sql`${each((c) => sql`${c.at.toISOString()}::timestamptz`)}`, triggeredPrice: sql`${each((c) => sql`${c.price}::float8`)}` })
      .where(
        and(
          inArray(alerts.id, [...byId.keys()]),
          eq(alerts.status, 'active'),
          each((c) => sql`(${alerts.updatedAt} = ${c.alert.updatedAt.toISOString()}::timestamptz and ${crosses(c.price)})`),
          notificationLocks(users),
        ),
      )
      .returning();
    const order = new Map(list.map((c, i) => [c.alert.id, i]));
    const rows = updated.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const notes = await insertNotifications(
      tx as unknown as Db,
      rows.map((row) => ({
        userId: row.userId,
        kind: 'alert' as const,
        title: `Alert triggered: ${row.symbol}`,
        body: triggeredAlertText(row),
        refId: row.id,
        data: { alert: toAlertDto(row) },
        dedupeKey: `alert:${row.id}:${row.updatedAt.getTime()}`,
      })),
      emit,
      { locked: true },
    );
    return rows.map((row, i) => ({ row, notification: notes[i] ?? null }));
  });
  // Housekeeping after the commit (or the caller's, later: `prune: false`, then `pruneFired`).
  if (opts.prune !== false) await pruneFired(db, fired.map((f) => f.row.userId));
  return fired;
}

/**
 * The users' triggered alerts and notifications beyond what is kept, dropped after their firing's commit. A prune
 * that fails is done by the user's next firing, and never makes the caller take the fired alerts for unfired (their
 * e-mails would be lost to the retry, which fires nothing).
 */
export async function pruneFired(db: Db, userIds: Iterable<string>): Promise<void> {
  for (const userId of new Set(userIds)) {
    await pruneTriggered(db, userId).catch(() => undefined);
    await pruneNotifications(db, userId).catch(() => undefined);
  }
}
