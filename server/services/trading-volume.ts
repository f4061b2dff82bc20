import { and, asc, desc, eq, gte, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ExchangeId } from '../../src/api/contracts/common';
import { add, dec, str } from '../../src/api/contracts/decimal';
import type { TradingVolumeQuery, TradingVolumeResponse, TradingVolumeSort } from '../../src/api/contracts/trading-volume';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { fills } from '../db/schema-fills';
import { decodeOffsetCursor, offsetMeta } from './paging';

/** `YYYY-MM` of a fill's time in UTC: trading volume and referrals count months in UTC. */
export const fillMonth = sql<string>`to_char(date_trunc('month', ${fills.time} at time zone 'UTC'), 'YYYY-MM')`;

/** `2026-05` → `2026-05-01T00:00:00.000Z`. */
export const monthIso = (ym: string) => `${ym}-01T00:00:00.000Z`;

/** The instant a month (ISO of its first day) ends. */
export function nextMonth(iso: string): Date {
  const d = new Date(iso);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/** Fill conditions for the optional month range (inclusive, UTC). */
export function fillTimeRange(from?: string, to?: string): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(gte(fills.time, new Date(from)));
  if (to) out.push(lt(fills.time, nextMonth(to)));
  return out;
}

/**
 * A numeric sum read as exact decimal text (issue 22: never cast to a float). The text of a numeric keeps the
 * column's 12 decimals ("0.300000000000"): `exactText` gives the canonical string ("0.3").
 */
export const numericSum = (column: SQLWrapper) => sql<string>`coalesce(sum(${column}), 0)`;
export const asText = (numeric: SQL) => sql<string>`(${numeric})::text`;
export const exactText = (text: string): string => str(dec(text));

const fillCount = sql<number>`count(*)::int`;
/** Sorting is on the numeric sums (the text would sort "9" after "10"). */
const volumeNumeric = numericSum(fills.notionalUsd);
const feeNumeric = numericSum(fills.feeUsd);
const volumeSum = asText(volumeNumeric);
const feeSum = asText(feeNumeric);

const SORT_EXPR: Record<TradingVolumeSort, SQL | typeof users.email | typeof fills.exchange> = {
  month: fillMonth,
  email: users.email,
  exchange: fills.exchange,
  fills: fillCount,
  volumeUsd: volumeNumeric,
  feeUsd: feeNumeric,
};

/**
 * `GET /v1/trading-volume`: recorded fills summed per user, exchange, network and month, with totals
 * and a per-month series over the same filters.
 */
export async function getTradingVolume(db: Db, q: TradingVolumeQuery): Promise<TradingVolumeResponse> {
  const where = and(
    ...fillTimeRange(q.from, q.to),
    ...(q.exchange ? [eq(fills.exchange, q.exchange)] : []),
    ...(q.network ? [eq(fills.network, q.network)] : []),
    ...(q.userId ? [eq(fills.userId, q.userId)] : []),
  );
  const offset = q.cursor ? decodeOffsetCursor(q.cursor) : 0;
  const dir = q.order === 'asc' ? asc : desc;
  // Ties broken by the natural key so pages never overlap or skip rows.
  const order = [dir(SORT_EXPR[q.sort]), desc(fillMonth), asc(users.email), asc(fills.exchange), asc(fills.network)];

  const rows = await db
    .select({
      userId: fills.userId,
      email: users.email,
      exchange: fills.exchange,
      network: fills.network,
      month: fillMonth,
      fills: fillCount,
      volumeUsd: volumeSum,
      feeUsd: feeSum,
    })
    .from(fills)
    .innerJoin(users, eq(users.id, fills.userId))
    .where(where)
    .groupBy(fills.userId, users.email, fills.exchange, fills.network, fillMonth)
    .orderBy(...order)
    .limit(q.limit + 1)
    .offset(offset);

  const [totals] = await db
    .select({ fills: fillCount, volumeUsd: volumeSum, feeUsd: feeSum, users: sql<number>`count(distinct ${fills.userId})::int` })
    .from(fills)
    .where(where);

  const perMonth = await db
    .select({ month: fillMonth, exchange: fills.exchange, volumeUsd: volumeSum })
    .from(fills)
    .where(where)
    .groupBy(fillMonth, fills.exchange)
    .orderBy(asc(fillMonth), asc(fills.exchange));
  const series: TradingVolumeResponse['series'] = [];
  for (const point of perMonth) {
    let last = series[series.length - 1];
    if (!last || last.month !== monthIso(point.month)) {
      last = { month: monthIso(point.month), volumeUsd: '0', byExchange: {} };
      series.push(last);
    }
    last.volumeUsd = str(add(dec(last.volumeUsd), dec(point.volumeUsd)));
    last.byExchange[point.exchange as ExchangeId] = exactText(point.volumeUsd);
  }

  return {
    data: rows.slice(0, q.limit).map((r) => ({ ...r, month: monthIso(r.month), volumeUsd: exactText(r.volumeUsd), feeUsd: exactText(r.feeUsd) })),
    meta: offsetMeta(offset, q.limit, rows.length > q.limit),
    totals: totals ? { ...totals, volumeUsd: exactText(totals.volumeUsd), feeUsd: exactText(totals.feeUsd) } : { fills: 0, volumeUsd: '0', feeUsd: '0', users: 0 },
    series,
  };
}
