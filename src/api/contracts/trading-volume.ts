import { z } from 'zod';
import { emailSchema } from './auth';
import { exchangeIdSchema, instantSchema, networkSchema, pagedSchema } from './common';
import { columnDecimalSchema } from './decimal';
import { monthSchema } from './referrals';

export const FILL_SIDES = ['BUY', 'SELL'] as const;
export const fillSideSchema = z.enum(FILL_SIDES);
export type FillSide = z.infer<typeof fillSideSchema>;

/** `fills` amounts are numeric(38,12) (server/db/schema-fills.ts). */
const FILL_COLUMN = { precision: 38, scale: 12 } as const;

/** Exchange ids in any case (`BITMEX`, `bitmex`), as imports from exchange exports spell them. */
const anyCaseExchangeId = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), exchangeIdSchema);

/**
 * One fill (DESIGN §3) as trading records it and as an admin imports it. The user is named by id or
 * by e-mail. `externalId` is the exchange's execution id: a fill already recorded (same exchange,
 * network and id) is skipped, so re-importing an export is harmless. `notionalUsd` defaults to
 * qty × price (right for linear USD(T) contracts; give it for inverse contracts, where qty is in
 * USD). `notionalXbt` is the XBT value when the exchange reports one (BitMEX); for BTC/XBT
 * instruments it defaults to notionalUsd ÷ price. `feeUsd` is the fee in USD (negative = rebate).
 * Every amount is a decimal string (a JSON number is read through its text) that fits the `fills`
 * columns, numeric(38,12): at most 26 digits before the point and 12 after.
 */
export const fillInputSchema = z
  .object({
    externalId: z.string().trim().min(1, 'Enter the execution id').max(128),
    userId: z.uuid().optional(),
    email: emailSchema.optional(),
    exchange: anyCaseExchangeId,
    network: networkSchema.default('MAINNET'),
    symbol: z.string().trim().min(1).max(64),
    side: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), fillSideSchema),
    qty: columnDecimalSchema(FILL_COLUMN, { min: { value: '0', inclusive: false, message: 'Must be above 0' } }),
    price: columnDecimalSchema(FILL_COLUMN, { min: { value: '0', inclusive: false, message: 'Must be above 0' } }),
    notionalUsd: columnDecimalSchema(FILL_COLUMN, { min: { value: '0', message: 'Cannot be negative' } }).optional(),
    notionalXbt: columnDecimalSchema(FILL_COLUMN, { min: { value: '0', message: 'Cannot be negative' } }).optional(),
    feeUsd: columnDecimalSchema(FILL_COLUMN).default('0'),
    time: instantSchema('Enter the time as an ISO date-time'),
  })
  .refine((f) => f.userId !== undefined || f.email !== undefined, { path: ['email'], message: 'Give the user as userId or email' });
export type FillInput = z.input<typeof fillInputSchema>;

export const FILLS_IMPORT_MAX = 2000;

/** `POST /v1/fills/import` (admin): fills from an exchange export (the page converts CSV to this). */
export const importFillsBodySchema = z.object({
  fills: z.array(fillInputSchema).min(1, 'No fills to import').max(FILLS_IMPORT_MAX, `Import at most ${FILLS_IMPORT_MAX} fills at once`),
});
export type ImportFillsBody = z.input<typeof importFillsBodySchema>;

export const importFillsResultSchema = z.object({
  /** Newly recorded fills. */
  inserted: z.number().int().nonnegative(),
  /** Fills already recorded (same exchange, network and externalId), skipped. */
  duplicates: z.number().int().nonnegative(),
});
export type ImportFillsResult = z.infer<typeof importFillsResultSchema>;

export const TRADING_VOLUME_SORTS = ['month', 'email', 'exchange', 'fills', 'volumeUsd', 'feeUsd'] as const;
export const tradingVolumeSortSchema = z.enum(TRADING_VOLUME_SORTS);
export type TradingVolumeSort = z.infer<typeof tradingVolumeSortSchema>;

/**
 * `GET /v1/trading-volume` (admin): volume per user, exchange, network and month from recorded
 * fills. Filters (FF_TRADING_VOLUME_FILTERS in the UI): months `from`–`to` (inclusive, UTC),
 * exchange, network, user. Rows are sorted server-side and cursor-paged.
 */
export const tradingVolumeQuerySchema = z
  .object({
    from: monthSchema.optional(),
    to: monthSchema.optional(),
    exchange: exchangeIdSchema.optional(),
    network: networkSchema.optional(),
    userId: z.uuid().optional(),
    sort: tradingVolumeSortSchema.default('month'),
    order: z.enum(['asc', 'desc']).default('desc'),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' });
export type TradingVolumeQuery = z.infer<typeof tradingVolumeQuerySchema>;

export const tradingVolumeRowSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  exchange: exchangeIdSchema,
  network: networkSchema,
  /** First day of the month, ISO, UTC. */
  month: z.iso.datetime(),
  fills: z.number().int().nonnegative(),
  /** Exact decimal strings (issue 22), summed as numeric by the database. */
  volumeUsd: z.string(),
  feeUsd: z.string(),
});
export type TradingVolumeRow = z.infer<typeof tradingVolumeRowSchema>;

export const tradingVolumeTotalsSchema = z.object({
  fills: z.number().int().nonnegative(),
  volumeUsd: z.string(),
  feeUsd: z.string(),
  users: z.number().int().nonnegative(),
});

/** Volume per month (oldest first) and per exchange, for the chart; same filters as the rows. */
export const tradingVolumeSeriesPointSchema = z.object({
  month: z.iso.datetime(),
  volumeUsd: z.string(),
  byExchange: z.partialRecord(exchangeIdSchema, z.string()),
});

export const tradingVolumeResponseSchema = pagedSchema(tradingVolumeRowSchema).extend({
  totals: tradingVolumeTotalsSchema,
  series: z.array(tradingVolumeSeriesPointSchema),
});
export type TradingVolumeResponse = z.infer<typeof tradingVolumeResponseSchema>;
