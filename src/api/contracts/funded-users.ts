import { z } from 'zod';
import { instantSchema, pagedSchema, pageQuerySchema, roleSchema } from './common';
import { columnDecimalSchema, dec, isDecimalString } from './decimal';

/**
 * Funded users, their trade settings and the transactions recorded on their API keys (DESIGN §4:
 * accounts trading with firm-provided keys). Admin-only except where noted.
 */

export const fundedUserSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  role: roleSchema,
  note: z.string().nullable(),
  /** The admin who added the user (null once that account is gone). */
  addedBy: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  apiKeyCount: z.number().int().nonnegative(),
});
export type FundedUser = z.infer<typeof fundedUserSchema>;

export const fundedUsersQuerySchema = pageQuerySchema.extend({
  /** Case-insensitive search in e-mail. */
  query: z.string().trim().max(254).optional(),
});
export type FundedUsersQuery = z.infer<typeof fundedUsersQuerySchema>;
export const fundedUsersPageSchema = pagedSchema(fundedUserSchema);
export type FundedUsersPage = z.infer<typeof fundedUsersPageSchema>;

export const addFundedUserBodySchema = z
  .object({
    userId: z.uuid('Choose a user'),
    note: z.string().trim().max(500, 'Note must be at most 500 characters').optional(),
  })
  .strict();
export type AddFundedUserBody = z.infer<typeof addFundedUserBodySchema>;

export const userIdParamSchema = z.object({ userId: z.uuid() });
export const userApiKeyParamsSchema = z.object({ userId: z.uuid(), apiKeyId: z.uuid() });

// ---- trade settings ----

export const TRADE_SETTINGS_LIMITS = {
  maxRiskPercent: 100,
  maxLeverage: 125,
  allowedSymbols: 200,
} as const;

const symbolSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9._:/-]{0,39}$/, 'Use exchange symbols such as BTCUSDT, XBTUSD or BTC-USDT-SWAP');

/** `trade_settings` columns (server/db/schema-api-keys.ts): numeric(9,4) percent and leverage, numeric(24,8) money. */
const RATIO_COLUMN = { precision: 9, scale: 4 } as const;
const MONEY_COLUMN = { precision: 24, scale: 8 } as const;
const ABOVE_ZERO = { value: '0', inclusive: false, message: 'Must be above 0' } as const;

/**
 * Per-user limits the server enforces on every order (DESIGN §4). `null` = no limit; an empty
 * `allowedSymbols` = every symbol. Each limit is a decimal string (a JSON number is read through its
 * text) that fits its column exactly: more decimals than the column keeps are refused (`0.00001` %,
 * `1e-9` USD would be stored as 0). The server judges orders against them exactly (no epsilon).
 */
export const tradeSettingsFieldsSchema = z.object({
  /** Largest loss one trade may risk, in % of the balance (entry → stop). */
  maxRiskPercent: columnDecimalSchema(RATIO_COLUMN, { min: ABOVE_ZERO, max: { value: String(TRADE_SETTINGS_LIMITS.maxRiskPercent), message: 'At most 100 %' } }).nullable(),
  /** Largest position notional, in the quote / settlement currency's USD value. */
  maxPositionNotional: columnDecimalSchema(MONEY_COLUMN, { min: ABOVE_ZERO, max: { value: '1000000000000', message: 'At most 1,000,000,000,000' } }).nullable(),
  maxLeverage: columnDecimalSchema(RATIO_COLUMN, { min: { value: '1', message: 'At least 1' }, max: { value: String(TRADE_SETTINGS_LIMITS.maxLeverage), message: 'At most 125' } }).nullable(),
  /** Realised + unrealised loss in one UTC day after which new orders are refused, USD. */
  dailyLossLimit: columnDecimalSchema(MONEY_COLUMN, { min: ABOVE_ZERO, max: { value: '1000000000000', message: 'At most 1,000,000,000,000' } }).nullable(),
  allowedSymbols: z.array(symbolSchema).max(TRADE_SETTINGS_LIMITS.allowedSymbols, 'At most 200 symbols'),
});

/**
 * Trade settings as stored and answered. Deliberately looser than the input rules: a row written
 * before those rules (e.g. a limit rounded to 0) must still be shown, so an admin can correct it.
 */
export const tradeSettingsSchema = z.object({
  userId: z.uuid(),
  maxRiskPercent: z.string().nullable(),
  maxPositionNotional: z.string().nullable(),
  maxLeverage: z.string().nullable(),
  dailyLossLimit: z.string().nullable(),
  allowedSymbols: z.array(z.string()),
  /** Null while the user has no stored settings (all limits off). */
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.uuid().nullable(),
});
export type TradeSettings = z.infer<typeof tradeSettingsSchema>;

export const TRADE_SETTINGS_DEFAULTS: z.output<typeof tradeSettingsFieldsSchema> = {
  maxRiskPercent: null,
  maxPositionNotional: null,
  maxLeverage: null,
  dailyLossLimit: null,
  allowedSymbols: [],
};

/** `PATCH /v1/users/settings/trade` (admin): the user plus any of the fields; each given field replaces the stored one. */
export const patchTradeSettingsBodySchema = tradeSettingsFieldsSchema
  .partial()
  .extend({ userId: z.uuid() })
  .strict()
  .refine((b) => Object.keys(b).some((k) => k !== 'userId'), { message: 'Nothing to update: send at least one trade setting' });
export type PatchTradeSettingsBody = z.infer<typeof patchTradeSettingsBodySchema>;

// ---- transactions ----

export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'profit-share', 'fee', 'adjustment'] as const;
export const transactionTypeSchema = z.enum(TRANSACTION_TYPES);
export type TransactionType = z.infer<typeof transactionTypeSchema>;
export const TRANSACTION_TYPE_LABELS: Record<TransactionType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  'profit-share': 'Profit share',
  fee: 'Fee',
  adjustment: 'Adjustment',
};

export const transactionSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  apiKeyId: z.uuid(),
  type: transactionTypeSchema,
  /** Positive for every type but `adjustment`, which may be negative; exact decimal text. */
  amount: z.string(),
  currency: z.string(),
  note: z.string().nullable(),
  occurredAt: z.iso.datetime(),
  createdBy: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});
export type Transaction = z.infer<typeof transactionSchema>;
export const transactionsPageSchema = pagedSchema(transactionSchema);
export type TransactionsPage = z.infer<typeof transactionsPageSchema>;
export const transactionsQuerySchema = pageQuerySchema;
export type TransactionsQuery = z.infer<typeof transactionsQuerySchema>;

/** Clock slack for "not in the future" (client clocks drift). */
export const TRANSACTION_FUTURE_SLACK_MS = 5 * 60_000;

// zod runs refinements even after the amount failed to parse: read it only when it is decimal text.
const isZeroText = (a: unknown): boolean => typeof a === 'string' && isDecimalString(a) && dec(a).units === 0n;
export const isNegativeText = (a: unknown): boolean => typeof a === 'string' && isDecimalString(a) && dec(a).units < 0n;

/** `transactions.amount` is numeric(30,10): a 10th decimal is the last one kept; never 0; sign checked by type. */
export const transactionAmountSchema = columnDecimalSchema(
  { precision: 30, scale: 10 },
  { min: { value: '-1000000000000', message: 'Amount is too large' }, max: { value: '1000000000000', message: 'Amount is too large' }, required: 'Enter an amount' },
).refine((a) => !isZeroText(a), 'Amount cannot be 0');

/**
 * `POST /v1/users/transactions`: a user records a transaction on one of their own keys; an admin
 * may record one for any user's key (then `userId` names the owner).
 */
export const createTransactionBodySchema = z
  .object({
    userId: z.uuid().optional(),
    apiKeyId: z.uuid('Choose an API key'),
    type: transactionTypeSchema,
    amount: transactionAmountSchema,
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{2,10}$/, 'Use a currency code such as USDT, USD or XBT'),
    occurredAt: instantSchema('Enter the date and time it happened'),
    note: z.string().trim().max(500, 'Note must be at most 500 characters').optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.type !== 'adjustment' && isNegativeText(b.amount)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Only adjustments may be negative' });
    if (Date.parse(b.occurredAt) > Date.now() + TRANSACTION_FUTURE_SLACK_MS) {
      ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'Cannot be in the future' });
    }
  });
export type CreateTransactionBody = z.infer<typeof createTransactionBodySchema>;

// ---- daily loss lock and the audit of admin trading (issue 21) ----

/**
 * `GET /v1/trade/{apiKeyId}/limits` (and `/v1/users/{userId}/trade/{apiKeyId}/limits`): the key's UTC
 * day against the owner's daily loss limit. Money is USD as exact decimal strings.
 */
export const tradeLimitsStatusSchema = z.object({
  /** The key's owner is a funded user (limits apply). */
  funded: z.boolean(),
  dailyLossLimit: z.string().nullable(),
  /**
   * Today's loss, positive (0 when ahead): realised PnL − fees of the key's fills since 00:00 UTC on
   * every symbol plus the open PnL now. "0" when no daily loss limit applies (then it is not computed).
   */
  lossToday: z.string(),
  /** At or over the limit: only reduce-only orders and closes until `lockedUntil`. */
  locked: z.boolean(),
  /** The next 00:00 UTC while locked. */
  lockedUntil: z.iso.datetime().nullable(),
  /** The message the order routes answer while locked. */
  reason: z.string().nullable(),
});
export type TradeLimitsStatus = z.infer<typeof tradeLimitsStatusSchema>;

/** One mutating request an admin sent on a funded user's key (`/v1/users/{userId}/trade/{apiKeyId}/…`). */
export const adminTradeAuditEntrySchema = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  /** The admin (null once that account is gone). */
  actorId: z.uuid().nullable(),
  actorEmail: z.string().nullable(),
  apiKeyId: z.uuid(),
  /** Null once the key is deleted. */
  apiKeyName: z.string().nullable(),
  method: z.string(),
  /** The route pattern (`/v1/users/:userId/trade/:apiKeyId/orders`). */
  route: z.string(),
  /** The request body as sent (never a secret: the key password is a header and is not kept). */
  body: z.unknown(),
  status: z.number().int(),
  /** "ok" or the error message answered. */
  result: z.string(),
});
export type AdminTradeAuditEntry = z.infer<typeof adminTradeAuditEntrySchema>;
export const adminTradeAuditQuerySchema = pageQuerySchema;
export const adminTradeAuditPageSchema = pagedSchema(adminTradeAuditEntrySchema);
export type AdminTradeAuditPage = z.infer<typeof adminTradeAuditPageSchema>;

/**
 * `GET /v1/users/{userId}/daily-loss` (admin): per key, today's loss from the fills the server has
 * recorded (the admin holds no key password, so no open PnL and no fresh read of the exchange).
 */
export const fundedDailyLossSchema = z.object({
  dailyLossLimit: z.string().nullable(),
  /** 00:00 UTC of the day and the next one. */
  dayStart: z.iso.datetime(),
  dayEnd: z.iso.datetime(),
  keys: z.array(
    z.object({
      apiKeyId: z.uuid(),
      name: z.string(),
      exchange: z.string(),
      network: z.string(),
      /** Realised PnL − fees of the day's recorded fills, as a loss (positive; 0 when ahead), USD. */
      lossToday: z.string(),
      /** The recorded loss alone reached the limit. */
      locked: z.boolean(),
    }),
  ),
});
export type FundedDailyLoss = z.infer<typeof fundedDailyLossSchema>;
