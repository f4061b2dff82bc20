import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { abs, add, cmp, dec, fixed, groupThousands, isZero, max, mul, neg, str, type Decimal } from '../../../src/api/contracts/decimal';
import type { FundedDailyLoss } from '../../../src/api/contracts/funded-users';
import type { Position } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import { apiKeys } from '../../db/schema-api-keys';
import { fills } from '../../db/schema-fills';
import type { TradingInstrument } from '../../exchanges/trading';
import { HttpError } from '../../lib/http-error';
import { getTradeSettings } from '../trade-settings';
import type { TradeSession } from './session';

/**
 * The funded users' day ledger (DESIGN §4, issue 21): per key and UTC day, the realised PnL minus
 * fees of the day's recorded fills on every symbol, plus the open PnL of the account now, in USD and
 * exact (decimal strings end to end, no float, no epsilon). The daily loss limit is judged on it.
 *
 * The recorded fills are only as complete as what the server has seen, so before judging, the
 * ledger asks the exchange for the fills of every symbol the key traded recently or holds a position
 * or an open order in, and records them: a stop that filled while no browser was open counts.
 * "Today" is the exchange's day (its server time): the fill times it states are on that clock.
 */

/** The UTC day around an instant: [00:00, next 00:00). */
export function utcDay(nowMs: number): { start: Date; end: Date } {
  const start = new Date(nowMs);
  start.setUTCHours(0, 0, 0, 0);
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

/**
 * Symbols whose fills are read again before judging, besides open positions and orders: those the
 * key traded in the last days. A position opened days ago and stopped out today with no browser open
 * has neither a position nor an order any more; only its earlier fills name the symbol.
 */
const LOOKBACK_MS = 7 * 86_400_000;
/** Fill pages read per symbol (newest first) before giving up on reaching 00:00: a bound on one check's calls. */
const MAX_PAGES = 10;
/** Money is shown and compared with the 12 decimals `fills.realised_pnl_usd` keeps. */
const MONEY_SCALE = 12;

export interface DayLedger {
  /** 00:00 UTC of the day and the next 00:00 UTC (when a lock ends). */
  start: Date;
  end: Date;
  /** Realised PnL − fees of the day's recorded fills of the key, USD. */
  realised: Decimal;
  /** Open (unrealised) PnL of the account now, USD; zero when not read (recorded-only ledgers). */
  open: Decimal;
  /** realised + open. */
  result: Decimal;
  /** max(0, −result): the day's loss, positive. */
  loss: Decimal;
}

const ledgerOf = (start: Date, end: Date, realised: Decimal, open: Decimal): DayLedger => {
  const result = add(realised, open);
  return { start, end, realised, open, result, loss: max(dec(0), neg(result)) };
};

/** Realised PnL − fees of one key's recorded fills in [start, end), summed exactly in SQL (numeric). */
async function recordedResult(db: Db, apiKeyId: string, start: Date, end: Date): Promise<Decimal> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(coalesce(${fills.realisedPnlUsd}, 0) - ${fills.feeUsd}), 0)::text` })
    .from(fills)
    .where(and(eq(fills.apiKeyId, apiKeyId), gte(fills.time, start), lt(fills.time, end)));
  return dec(row?.total ?? '0');
}

/** The day's loss of a key from the recorded fills alone (no exchange call: the admin pages, which hold no key password). */
export async function recordedDayLedger(db: Db, apiKeyId: string, nowMs = Date.now()): Promise<DayLedger> {
  const { start, end } = utcDay(nowMs);
  return ledgerOf(start, end, await recordedResult(db, apiKeyId, start, end), dec(0));
}

/** Open PnL in USD: linear positions settle in USD(T) (one for one), inverse ones in the coin, worth the mark. */
export function openPnlUsd(positions: readonly Position[]): Decimal {
  return positions.reduce((sum, p) => {
    const upl = dec(p.unrealisedPnl);
    return add(sum, p.category === 'inverse' ? mul(upl, dec(p.markPrice)) : upl);
  }, dec(0));
}

/** Reads the exchange's fills of a symbol back to `since` (newest first) and records them. */
async function recordSince(s: TradeSession, inst: TradingInstrument, since: number): Promise<void> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const p = await s.run((c) => c.fills(inst, cursor));
    await s.record(inst, p.data);
    const oldest = p.data.reduce((t, f) => Math.min(t, Date.parse(f.time)), Infinity);
    if (!p.nextCursor || !p.data.length || oldest < since) return;
    cursor = p.nextCursor;
  }
}

/**
 * Refreshes the key's recorded fills for today, then answers its ledger with the open PnL of now.
 * An exchange failure fails the check (the order path answers 502/504): a limit is never judged on
 * what could not be read.
 */
export async function refreshDayLedger(db: Db, s: TradeSession): Promise<DayLedger> {
  const now = await s.run((c) => c.serverTime());
  const { start, end } = utcDay(now);
  const [positions, orders, recent] = await Promise.all([
    s.run((c) => c.positions()),
    s.run((c) => c.openOrders()),
    db
      .selectDistinct({ symbol: fills.symbol })
      .from(fills)
      .where(and(eq(fills.apiKeyId, s.key.id), gte(fills.time, new Date(start.getTime() - LOOKBACK_MS)))),
  ]);
  const symbols = new Map<string, TradingInstrument>();
  for (const symbol of [...recent.map((r) => r.symbol), ...positions.map((p) => p.symbol), ...orders.map((o) => o.symbol)]) {
    try {
      const inst = s.instrument(symbol);
      symbols.set(inst.exchangeSymbol, inst);
    } catch (err) {
      // Delisted since: the exchange lists nothing more to read for it.
      if (!(err instanceof HttpError)) throw err;
    }
  }
  for (const inst of symbols.values()) await recordSince(s, inst, start.getTime());
  return ledgerOf(start, end, await recordedResult(db, s.key.id, start, end), openPnlUsd(positions));
}

/**
 * The day's loss reached the limit: exact, at the limit counts. A stored limit of 0 (written before
 * limits had to be above 0) is no limit rather than a lock that nothing could ever lift.
 */
export const isLocked = (ledger: DayLedger, dailyLossLimit: Decimal): boolean => !isZero(dailyLossLimit) && cmp(ledger.loss, dailyLossLimit) >= 0;

/** Dollars with cents for messages ("1,234.57"); the exact amount travels beside it as a decimal string. */
export function usd(amount: Decimal): string {
  const text = fixed(abs(amount), 2);
  return `${amount.units < 0n && text !== '0.00' ? '-' : ''}${groupThousands(text)}`;
}

/** What a locked user is told (the 422's message, the Order entry banner's reason). */
export function lockMessage(ledger: DayLedger, dailyLossLimit: Decimal): string {
  return `Daily loss limit reached: a loss of $${usd(ledger.loss)} today against your limit of $${usd(dailyLossLimit)}. Only orders that reduce a position and closes are accepted until 00:00 UTC (${ledger.end.toISOString()})`;
}

/** Money as the API answers it: the exact decimal with the ledger's 12 decimals at most. */
export const money = (amount: Decimal): string => str(dec(fixed(amount, MONEY_SCALE)));

/**
 * `GET /v1/users/{userId}/daily-loss` (admin): each key's loss today from the recorded fills against
 * the user's daily loss limit. What the server has not seen yet (and the open PnL) is not in it: the
 * user's own Order entry, which holds the key password, refreshes from the exchange.
 */
export async function fundedDailyLoss(db: Db, ownerId: string, nowMs = Date.now()): Promise<FundedDailyLoss> {
  const settings = await getTradeSettings(db, ownerId);
  const limit = settings.dailyLossLimit === null ? null : dec(settings.dailyLossLimit);
  const keys = await db
    .select({ id: apiKeys.id, name: apiKeys.name, exchange: apiKeys.exchange, network: apiKeys.network })
    .from(apiKeys)
    .where(eq(apiKeys.userId, ownerId))
    .orderBy(apiKeys.createdAt);
  const rows = await Promise.all(keys.map(async (k) => ({ k, ledger: await recordedDayLedger(db, k.id, nowMs) })));
  const day = utcDay(nowMs);
  return {
    dailyLossLimit: limit === null ? null : money(limit),
    dayStart: day.start.toISOString(),
    dayEnd: day.end.toISOString(),
    keys: rows.map(({ k, ledger }) => ({
      apiKeyId: k.id,
      name: k.name,
      exchange: k.exchange,
      network: k.network,
      lossToday: money(ledger.loss),
      locked: limit !== null && isLocked(ledger, limit),
    })),
  };
}
