import { and, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Currency, Network, PageMeta } from '../../src/api/contracts/common';
import { add, dec, fixed, groupThousands, str, type Decimal } from '../../src/api/contracts/decimal';
import {
  REFERRAL_EXCHANGE_IDS,
  type exchangeVolumeBodySchema,
  type incomeSubmissionSchema,
  type OwnReferrals,
  type OwnReferralsQuery,
  type ReferralExchange,
  type ReferralMonthlyRecord,
  type ReferralVolumeQuery,
  type ReferrersQuery,
  type ReferrerSummary,
} from '../../src/api/contracts/referrals';
import type { Db } from '../db/client';
import { users, type UserRow } from '../db/schema';
import { fills } from '../db/schema-fills';
import { referralExchangeMonths, referrerIncomes } from '../db/schema-referrals';
import { notFound } from '../lib/http-error';
import { keysetPage } from './keyset-page';
import { asText, exactText, fillMonth, fillTimeRange, monthIso, nextMonth, numericSum } from './trading-volume';

/** Whose referred volume: one referrer, or every referrer together. */
type Referrers = { referrerId: string } | { all: true } | { referrerIds: string[] };

interface Scope {
  exchange: ReferralExchange;
  network: Network;
  currency: Currency;
  /** Months, ISO of their first day, inclusive. */
  from?: string;
  to?: string;
}

const networkOf = (testnet: boolean): Network => (testnet ? 'TESTNET' : 'MAINNET');
const ym = (d: Date) => d.toISOString().slice(0, 7);
const incomeMonth = sql<string>`to_char(${referrerIncomes.month} at time zone 'UTC', 'YYYY-MM')`;

/**
 * Referred volume per referrer and month: the notional of fills by users whose `referrerId` is the
 * referrer, on the exchange and network. In XBT the fills' XBT notional is summed (fills without a
 * known XBT value — non-bitcoin instruments imported without one — are not part of XBT totals).
 */
async function referredVolume(db: Db, who: Referrers, scope: Scope): Promise<{ referrerId: string; month: string; volume: string }[]> {
  const referred = alias(users, 'referred');
  const column = scope.currency === 'XBT' ? fills.notionalXbt : fills.notionalUsd;
  const byReferrer: SQL =
    'referrerId' in who
      ? eq(referred.referrerId, who.referrerId)
      : 'referrerIds' in who
        ? inArray(referred.referrerId, who.referrerIds)
        : isNotNull(referred.referrerId);
  const rows = await db
    .select({ referrerId: referred.referrerId, month: fillMonth, volume: asText(numericSum(column)) })
    .from(fills)
    .innerJoin(referred, eq(referred.id, fills.userId))
    .where(
      and(
        eq(fills.exchange, REFERRAL_EXCHANGE_IDS[scope.exchange]),
        eq(fills.network, scope.network),
        byReferrer,
        ...fillTimeRange(scope.from, scope.to),
      ),
    )
    .groupBy(referred.referrerId, fillMonth);
  return rows.map((r) => ({ referrerId: r.referrerId ?? '', month: r.month, volume: exactText(r.volume) }));
}

/** Submitted referrer income (USD) per referrer and month. */
async function referrerIncome(db: Db, who: Referrers, scope: Omit<Scope, 'currency'>): Promise<{ referrerId: string; month: string; income: string }[]> {
  const conditions: SQL[] = [eq(referrerIncomes.exchange, scope.exchange), eq(referrerIncomes.network, scope.network)];
  if ('referrerId' in who) conditions.push(eq(referrerIncomes.referrerId, who.referrerId));
  if ('referrerIds' in who) conditions.push(inArray(referrerIncomes.referrerId, who.referrerIds));
  if (scope.from) conditions.push(sql`${referrerIncomes.month} >= ${scope.from}::timestamptz`);
  if (scope.to) conditions.push(sql`${referrerIncomes.month} < ${nextMonth(scope.to).toISOString()}::timestamptz`);
  const rows = await db
    .select({ referrerId: referrerIncomes.referrerId, month: incomeMonth, income: asText(numericSum(referrerIncomes.income)) })
    .from(referrerIncomes)
    .where(and(...conditions))
    .groupBy(referrerIncomes.referrerId, incomeMonth);
  return rows.map((r) => ({ ...r, income: exactText(r.income) }));
}

/** Exact sums of decimal strings per key (issue 22: never a float). */
class Totals {
  private readonly sums = new Map<string, Decimal>();
  add(key: string, value: string): void {
    const before = this.sums.get(key);
    this.sums.set(key, before ? add(before, dec(value)) : dec(value));
  }
  keys(): string[] {
    return [...this.sums.keys()];
  }
  /** The canonical decimal string; "0" for a key never added. */
  get(key: string): string {
    const sum = this.sums.get(key);
    return sum ? str(sum) : '0';
  }
}

function sumByMonth<T extends { month: string }>(rows: T[], value: (r: T) => string): Totals {
  const out = new Totals();
  for (const r of rows) out.add(r.month, value(r));
  return out;
}

/**
 * `GET /v1/referrals/volume` (SPEC §7): the monthly referral records, newest month first. A month
 * appears when the exchange reported totals for it, or a referred user traded, or income was
 * submitted; missing figures are 0.
 */
export async function getReferralVolume(db: Db, q: ReferralVolumeQuery): Promise<ReferralMonthlyRecord[]> {
  const scope: Scope = { exchange: q.exchange, network: networkOf(q.testnet), currency: q.currency };
  let who: Referrers = { all: true };
  if (q.type === 'user') {
    const userId = q.userId ?? '';
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw notFound('User not found');
    who = { referrerId: userId };
  }
  const [exchangeRows, volumeRows, incomeRows] = await Promise.all([
    db
      .select()
      .from(referralExchangeMonths)
      .where(
        and(
          eq(referralExchangeMonths.exchange, scope.exchange),
          eq(referralExchangeMonths.network, scope.network),
          eq(referralExchangeMonths.currency, scope.currency),
        ),
      ),
    referredVolume(db, who, scope),
    referrerIncome(db, who, scope),
  ]);
  const exchangeByMonth = new Map(exchangeRows.map((r) => [ym(r.month), r]));
  const volume = sumByMonth(volumeRows, (r) => r.volume);
  const income = sumByMonth(incomeRows, (r) => r.income);
  const months = [...new Set([...exchangeByMonth.keys(), ...volume.keys(), ...income.keys()])].sort().reverse();
  return months.map((m) => ({
    date: monthIso(m),
    exchange: { name: scope.exchange },
    totalExchangeVolume: exactText(exchangeByMonth.get(m)?.totalExchangeVolume ?? '0'),
    totalExchangeIncome: exactText(exchangeByMonth.get(m)?.totalExchangeIncome ?? '0'),
    totalReferrerVolume: volume.get(m),
    totalReferrerIncome: income.get(m),
  }));
}

/** `PATCH /v1/referrals/volume` (admin): sets the exchange's totals for one or more months. */
export async function setExchangeMonths(db: Db, body: z.output<typeof exchangeVolumeBodySchema>, adminId: string): Promise<{ message: string }> {
  const network = networkOf(body.testnet);
  const now = new Date();
  await db.transaction(async (tx) => {
    for (const entry of body.entries) {
      const values = {
        exchange: body.exchange,
        network,
        currency: body.currency,
        month: new Date(entry.date),
        totalExchangeVolume: entry.totalExchangeVolume,
        totalExchangeIncome: entry.totalExchangeIncome,
        updatedBy: adminId,
        updatedAt: now,
      };
      await tx
        .insert(referralExchangeMonths)
        .values(values)
        .onConflictDoUpdate({
          target: [referralExchangeMonths.exchange, referralExchangeMonths.network, referralExchangeMonths.currency, referralExchangeMonths.month],
          set: { totalExchangeVolume: values.totalExchangeVolume, totalExchangeIncome: values.totalExchangeIncome, updatedBy: adminId, updatedAt: now },
        });
    }
  });
  const n = body.entries.length;
  return { message: `${body.exchange} ${network} exchange totals (${body.currency}) saved for ${n} month${n === 1 ? '' : 's'}` };
}

/** An exact decimal string as dollars and cents with en-US separators ("$1,234.50"). */
const usd = (value: string): string => `$${groupThousands(fixed(dec(value), 2))}`;
const mmYyyy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** `PATCH /v1/referrals/user` (admin): the referrer's income for a month; a resubmission replaces it. */
export async function submitReferrerIncome(
  db: Db,
  body: z.output<typeof incomeSubmissionSchema>,
  testnet: boolean,
  adminId: string,
): Promise<{ message: string }> {
  const [referrer] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, body.userId)).limit(1);
  if (!referrer) throw notFound('User not found');
  const network = networkOf(testnet);
  const now = new Date();
  await db
    .insert(referrerIncomes)
    .values({ referrerId: referrer.id, exchange: body.exchange, network, month: new Date(body.date), income: body.income, createdBy: adminId })
    .onConflictDoUpdate({
      target: [referrerIncomes.referrerId, referrerIncomes.exchange, referrerIncomes.network, referrerIncomes.month],
      set: { income: body.income, createdBy: adminId, updatedAt: now },
    });
  return { message: `Income of ${usd(body.income)} for ${mmYyyy(body.date)} saved for ${referrer.email}` };
}

/** `GET /v1/referrals/user`: the signed-in referrer's own months (no firm-wide exchange totals). */
export async function getOwnReferrals(db: Db, me: UserRow, q: OwnReferralsQuery): Promise<OwnReferrals> {
  const scope: Scope = { exchange: q.exchange, network: networkOf(q.testnet), currency: q.currency };
  const who = { referrerId: me.id };
  const [volumeRows, incomeRows, [count]] = await Promise.all([
    referredVolume(db, who, scope),
    referrerIncome(db, who, scope),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.referrerId, me.id)),
  ]);
  const volume = sumByMonth(volumeRows, (r) => r.volume);
  const income = sumByMonth(incomeRows, (r) => r.income);
  const months = [...new Set([...volume.keys(), ...income.keys()])].sort().reverse();
  return {
    referralCode: me.referralCode,
    referredUsers: count?.n ?? 0,
    data: months.map((m) => ({
      date: monthIso(m),
      exchange: { name: scope.exchange },
      totalReferrerVolume: volume.get(m),
      totalReferrerIncome: income.get(m),
    })),
  };
}

/** Referrers: the referrer role, or anyone who has referred someone. */
const isReferrer = or(eq(users.role, 'referrer'), sql`exists (select 1 from "users" "r" where "r"."referrer_id" = ${users.id})`);

/**
 * `GET /v1/referrals` (admin): referrers newest first (cursor-paged) with their referred users,
 * referred volume (USD) and submitted income over the months and exchange(s) asked for.
 */
export async function listReferrers(db: Db, q: ReferrersQuery): Promise<{ data: ReferrerSummary[]; meta: PageMeta }> {
  const page = await keysetPage({
    cursor: q.cursor,
    limit: q.limit,
    time: users.createdAt,
    id: users.id,
    position: (row: { createdAt: Date; id: string }) => ({ time: row.createdAt, id: row.id }),
    run: (beyond, order, limit) =>
      db
        .select({ id: users.id, email: users.email, role: users.role, referralCode: users.referralCode, createdAt: users.createdAt })
        .from(users)
        .where(and(isReferrer, beyond))
        .orderBy(...order)
        .limit(limit),
  });
  const ids = page.data.map((r) => r.id);
  if (ids.length === 0) return { data: [], meta: page.meta };

  const network = networkOf(q.testnet);
  const exchanges: ReferralExchange[] = q.exchangeName ? [q.exchangeName] : ['BITMEX', 'BINANCE'];
  const who: Referrers = { referrerIds: ids };
  const volume = new Totals();
  const income = new Totals();
  for (const exchange of exchanges) {
    const scope: Scope = { exchange, network, currency: 'USD', from: q.startAt, to: q.endAt };
    for (const r of await referredVolume(db, who, scope)) volume.add(r.referrerId, r.volume);
    for (const r of await referrerIncome(db, who, scope)) income.add(r.referrerId, r.income);
  }
  const counts = new Map(
    (
      await db
        .select({ referrerId: users.referrerId, n: sql<number>`count(*)::int` })
        .from(users)
        .where(inArray(users.referrerId, ids))
        .groupBy(users.referrerId)
    ).map((r) => [r.referrerId ?? '', r.n]),
  );
  return {
    data: page.data.map((r) => ({
      userId: r.id,
      email: r.email,
      role: r.role,
      referralCode: r.referralCode,
      referredUsers: counts.get(r.id) ?? 0,
      totalReferrerVolume: volume.get(r.id),
      totalReferrerIncome: income.get(r.id),
    })),
    meta: page.meta,
  };
}
