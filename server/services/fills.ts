import { inArray, sql } from 'drizzle-orm';
import type { ExchangeId, Network } from '../../src/api/contracts/common';
import { abs, cmp, dec, div, mul, round, str, type Decimal } from '../../src/api/contracts/decimal';
import type { z } from 'zod';
import type { FillSide, ImportFillsResult, importFillsBodySchema } from '../../src/api/contracts/trading-volume';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { fills, type NewFillRow } from '../db/schema-fills';
import { badRequest } from '../lib/http-error';

/** numeric(38,12): the amount columns of `fills` keep 12 digits after the point and fewer than 10^26 before it. */
const FILL_SCALE = 12;
const FILL_AMOUNT_LIMIT = dec('1e26');

/**
 * One execution as trading (or an import) reports it; see `fillInputSchema` for the units. Every
 * amount is an exact decimal string ("0.25", "64000", "1e-7"), never a float (issue 22).
 */
export interface RecordFill {
  userId: string;
  exchange: ExchangeId;
  network: Network;
  symbol: string;
  side: FillSide;
  qty: string;
  price: string;
  /** Default qty × price (linear contracts); inverse contracts must give it. */
  notionalUsd?: string;
  /** Default notionalUsd ÷ price for BTC/XBT instruments, else unknown (null). */
  notionalXbt?: string | null;
  feeUsd?: string;
  /** Realised PnL in USD as an exact decimal string (trading code; imports leave it unknown). */
  realisedPnlUsd?: string | null;
  /** The stored key that traded it (trading code; imports leave it unknown). */
  apiKeyId?: string | null;
  time: Date;
  /** The exchange's execution id. */
  externalId: string;
}

/** BTC- or XBT-based instruments, whose price is the XBT/USD rate itself. */
const isBitcoinInstrument = (symbol: string) => /^(XBT|BTC)/i.test(symbol.replace(/^[^A-Z]+/i, ''));

/** What the column stores: rounded here to its 12 decimals (half-even), exactly, not by the database. */
const columnValue = (value: Decimal): string => str(round(value, FILL_SCALE));

export function toFillRow(fill: RecordFill): NewFillRow {
  const price = dec(fill.price);
  const notionalUsd = fill.notionalUsd !== undefined ? dec(fill.notionalUsd) : mul(dec(fill.qty), price);
  const notionalXbt =
    fill.notionalXbt !== undefined && fill.notionalXbt !== null
      ? dec(fill.notionalXbt)
      : isBitcoinInstrument(fill.symbol) && price.units !== 0n
        ? div(notionalUsd, price, FILL_SCALE)
        : null;
  return {
    userId: fill.userId,
    exchange: fill.exchange,
    network: fill.network,
    symbol: fill.symbol.toUpperCase(),
    side: fill.side,
    qty: columnValue(dec(fill.qty)),
    price: columnValue(price),
    notionalUsd: columnValue(notionalUsd),
    notionalXbt: notionalXbt === null ? null : columnValue(notionalXbt),
    feeUsd: columnValue(dec(fill.feeUsd ?? '0')),
    realisedPnlUsd: fill.realisedPnlUsd ?? null,
    apiKeyId: fill.apiKeyId ?? null,
    time: fill.time,
    externalId: fill.externalId,
  };
}

const CHUNK = 500;

/**
 * Records fills (DESIGN §3: every fill the server sees), the source of trading volume and referral
 * volume. Idempotent per (exchange, network, externalId): executions already recorded are skipped
 * and counted as duplicates, so trading code may report the same execution more than once.
 * A duplicate recorded before fills kept their key (migration 0007) takes the key and realised PnL
 * it arrives with, once: otherwise that day's earlier fills would be missing from the day ledger.
 */
export async function recordFills(db: Db, input: readonly RecordFill[]): Promise<ImportFillsResult> {
  let inserted = 0;
  for (let i = 0; i < input.length; i += CHUNK) {
    // One statement may not touch a row twice under DO UPDATE: a repeat within the chunk is a duplicate here.
    const seen = new Set<string>();
    const rows = input
      .slice(i, i + CHUNK)
      .map(toFillRow)
      .filter((r) => {
        const id = `${r.exchange}\u0000${r.network}\u0000${r.externalId}`;
        return !seen.has(id) && Boolean(seen.add(id));
      });
    const written = await db
      .insert(fills)
      .values(rows)
      .onConflictDoUpdate({
        target: [fills.exchange, fills.network, fills.externalId],
        set: { apiKeyId: sql`excluded.api_key_id`, realisedPnlUsd: sql`coalesce(${fills.realisedPnlUsd}, excluded.realised_pnl_usd)` },
        setWhere: sql`${fills.apiKeyId} is null and excluded.api_key_id is not null`,
      })
      // xmax = 0 only on a row this statement inserted (an updated row carries the updating transaction's id).
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    inserted += written.filter((r) => r.inserted).length;
  }
  return { inserted, duplicates: input.length - inserted };
}

type ParsedImport = z.output<typeof importFillsBodySchema>;

/**
 * `POST /v1/fills/import`: resolves each fill's user (by id or e-mail) and records them all, or
 * none: an unknown user answers 400 naming the fill (`fills.3.email`).
 */
export async function importFills(db: Db, parsed: ParsedImport): Promise<ImportFillsResult> {
  const emails = [...new Set(parsed.fills.flatMap((f) => (f.userId ? [] : f.email ? [f.email] : [])))];
  const ids = [...new Set(parsed.fills.flatMap((f) => (f.userId ? [f.userId] : [])))];
  const byEmail = new Map<string, string>();
  const knownIds = new Set<string>();
  if (emails.length) {
    for (const row of await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails))) byEmail.set(row.email, row.id);
  }
  if (ids.length) {
    for (const row of await db.select({ id: users.id }).from(users).where(inArray(users.id, ids))) knownIds.add(row.id);
  }
  const records: RecordFill[] = parsed.fills.map((f, i) => {
    // Each given number fits its column (the contract); a derived one may not: qty × price, ÷ price.
    const derived = toFillRow({ ...f, userId: '', time: new Date(0) });
    for (const field of ['notionalUsd', 'notionalXbt'] as const) {
      const value = derived[field];
      if (typeof value === 'string' && cmp(abs(dec(value)), FILL_AMOUNT_LIMIT) >= 0) {
        const name = `fills.${i}.${field}`;
        const how = field === 'notionalUsd' ? 'qty × price' : 'notionalUsd ÷ price';
        throw badRequest(`Invalid ${name}: ${how} is too large for a fill (row ${i + 1})`, { [name]: `${how} has more than 26 digits before the decimal point` });
      }
    }
    const userId = f.userId ?? (f.email ? byEmail.get(f.email) : undefined);
    if (!userId || (f.userId && !knownIds.has(f.userId))) {
      const field = f.userId ? `fills.${i}.userId` : `fills.${i}.email`;
      throw badRequest(`Invalid ${field}: no user ${f.userId ?? f.email ?? ''} (row ${i + 1})`, { [field]: 'No such user' });
    }
    return {
      userId,
      exchange: f.exchange,
      network: f.network,
      symbol: f.symbol,
      side: f.side,
      qty: f.qty,
      price: f.price,
      notionalUsd: f.notionalUsd,
      notionalXbt: f.notionalXbt,
      feeUsd: f.feeUsd,
      time: new Date(f.time),
      externalId: f.externalId,
    };
  });
  return db.transaction((tx) => recordFills(tx, records));
}
