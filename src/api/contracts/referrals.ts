import { z } from 'zod';
import { currencySchema, INPUT_YEAR_MIN, pagedSchema, pageQuerySchema, roleSchema, type Currency, type ExchangeId, type Network } from './common';
import { columnDecimalSchema } from './decimal';

/**
 * Exchanges of the referral programme (SPEC §1: BITMEX and BINANCE, upper-case). The order is the
 * filter's order: BITMEX (the default) first, BINANCE last (SPEC §2 referrer user page).
 */
export const REFERRAL_EXCHANGES = ['BITMEX', 'BINANCE'] as const;
export const referralExchangeSchema = z.enum(REFERRAL_EXCHANGES);
export type ReferralExchange = z.infer<typeof referralExchangeSchema>;

/** The trading exchange id behind each referral exchange name (fills are recorded by exchange id). */
export const REFERRAL_EXCHANGE_IDS: Readonly<Record<ReferralExchange, ExchangeId>> = { BITMEX: 'bitmex', BINANCE: 'binance' };

/** SPEC §9: default exchange BITMEX, network MAINNET, currency USD. */
export const REFERRAL_DEFAULTS: { exchange: ReferralExchange; network: Network; currency: Currency } = {
  exchange: 'BITMEX',
  network: 'MAINNET',
  currency: 'USD',
};

/** XBT totals exist only for BitMEX (SPEC §2: the currency filter is shown only for BITMEX). */
export const currencyOffered = (exchange: ReferralExchange, currency: Currency): Currency => (exchange === 'BITMEX' ? currency : 'USD');

const MONTH_RE = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/**
 * The first instant (UTC) of the month a string names, or null. `YYYY-MM` and `YYYY-MM-DD` are
 * read as UTC dates (SPEC §5: "a month string is parsed as a UTC date"), so a month picker's value
 * never shifts by a month in time zones west of Greenwich; a full ISO date-time is converted to UTC.
 */
export function parseMonth(value: string): Date | null {
  const text = value.trim();
  const short = MONTH_RE.exec(text);
  let year: number;
  let monthIndex: number;
  if (short) {
    year = Number(short[1]);
    monthIndex = Number(short[2]) - 1;
    const day = short[3] === undefined ? 1 : Number(short[3]);
    if (monthIndex < 0 || monthIndex > 11 || day < 1 || day > 31) return null;
  } else {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
    const instant = new Date(text);
    if (Number.isNaN(instant.getTime())) return null;
    year = instant.getUTCFullYear();
    monthIndex = instant.getUTCMonth();
  }
  // Months the database stores and reads back (contracts/common.ts INPUT_YEAR_MIN); an offset can
  // also push `9999-12-31T23:30-01:00` into the year 10000.
  if (year < INPUT_YEAR_MIN || year > 9999) return null;
  return new Date(Date.UTC(year, monthIndex, 1));
}

/** A month as input (`YYYY-MM`, `YYYY-MM-DD` or ISO date-time) → the ISO string of its first day, UTC. */
export const monthSchema = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const month = parseMonth(value);
    if (!month) {
      ctx.addIssue({ code: 'custom', message: 'Enter a month as YYYY-MM' });
      return z.NEVER;
    }
    return month.toISOString();
  });

/** The ISO string of the first day (UTC) of the month containing `instant`. */
export const monthStart = (instant: Date): string => new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1)).toISOString();

export const REFERRAL_VOLUME_TYPES = ['user', 'exchange'] as const;

/**
 * Monthly referral record (SPEC §3). `date` is the first day of the month (ISO, UTC). Exchange
 * figures are what the exchange reported for the firm's whole account that month (admin-entered or
 * imported); referrer figures are the referred users' volume from recorded fills and the income
 * the admin submitted for the referrer. In XBT the volumes are XBT; incomes are always USD. Every
 * amount is an exact decimal string ("1234.5"), never a float (issue 22).
 */
export const referralMonthlyRecordSchema = z.object({
  date: z.iso.datetime(),
  exchange: z.object({ name: referralExchangeSchema }),
  totalExchangeVolume: z.string(),
  totalExchangeIncome: z.string(),
  totalReferrerVolume: z.string(),
  totalReferrerIncome: z.string(),
});
export type ReferralMonthlyRecord = z.infer<typeof referralMonthlyRecordSchema>;
export const referralMonthlyRecordListSchema = z.array(referralMonthlyRecordSchema);

/**
 * `GET /v1/referrals/volume` (admin), newest month first. `type=user` with `userId`: one referrer's
 * months (SPEC §7: exchange, type 'user', userId, testnet, currency). `type=exchange`: the
 * exchange's months with the referrer figures summed over every referrer.
 */
export const referralVolumeQuerySchema = z
  .object({
    exchange: referralExchangeSchema.default(REFERRAL_DEFAULTS.exchange),
    type: z.enum(REFERRAL_VOLUME_TYPES),
    userId: z.uuid().optional(),
    testnet: z.stringbool().default(false),
    currency: currencySchema.default(REFERRAL_DEFAULTS.currency),
  })
  .refine((q) => q.type !== 'user' || q.userId !== undefined, { path: ['userId'], message: 'userId is required when type is user' })
  .refine((q) => q.currency === currencyOffered(q.exchange, q.currency), { path: ['currency'], message: 'XBT is offered only for BITMEX' });
export type ReferralVolumeQuery = z.infer<typeof referralVolumeQuerySchema>;

/** `referral_exchange_months` and `referrer_incomes` amounts are numeric(38,12) (server/db/schema-referrals.ts). */
export const REFERRAL_AMOUNT_COLUMN = { precision: 38, scale: 12 } as const;

/** A referrer's monthly income (USD) as entered: a decimal string (a JSON number is read through its text). */
export const referralIncomeSchema = columnDecimalSchema(REFERRAL_AMOUNT_COLUMN, {
  min: { value: '0', message: 'Income cannot be negative' },
  max: { value: '1000000000000', message: 'At most 1,000,000,000,000' },
});

/**
 * `PATCH /v1/referrals/volume` (admin): the exchange's monthly totals for one exchange, network and
 * currency — one month from the form, or many from an import. An existing month is replaced.
 */
export const exchangeMonthEntrySchema = z.object({
  date: monthSchema,
  totalExchangeVolume: columnDecimalSchema(REFERRAL_AMOUNT_COLUMN, { min: { value: '0', message: 'Volume cannot be negative' } }),
  totalExchangeIncome: columnDecimalSchema(REFERRAL_AMOUNT_COLUMN, { min: { value: '0', message: 'Income cannot be negative' } }),
});
export const exchangeVolumeBodySchema = z
  .object({
    exchange: referralExchangeSchema,
    type: z.literal('exchange'),
    testnet: z.boolean().default(false),
    currency: currencySchema.default(REFERRAL_DEFAULTS.currency),
    entries: z.array(exchangeMonthEntrySchema).min(1, 'Add at least one month').max(600),
  })
  .refine((b) => b.currency === currencyOffered(b.exchange, b.currency), { path: ['currency'], message: 'XBT is offered only for BITMEX' });
export type ExchangeVolumeBody = z.input<typeof exchangeVolumeBodySchema>;

/**
 * Income submission (SPEC §3): `PATCH /v1/referrals/user` (admin) sets the referrer's income for a
 * month, replacing an earlier one. The network is the query's `testnet` flag (default MAINNET), so
 * the body stays exactly SPEC's. The answer's `message` is shown as the success toast.
 */
export const incomeSubmissionSchema = z.object({
  exchange: referralExchangeSchema,
  type: z.literal('user'),
  userId: z.uuid(),
  date: monthSchema,
  income: referralIncomeSchema,
});
export type IncomeSubmission = z.input<typeof incomeSubmissionSchema>;
export const incomeSubmissionQuerySchema = z.object({ testnet: z.stringbool().default(false) });

/** One month of the signed-in referrer's own data (no firm-wide exchange totals). */
export const ownReferralMonthSchema = z.object({
  date: z.iso.datetime(),
  exchange: z.object({ name: referralExchangeSchema }),
  totalReferrerVolume: z.string(),
  totalReferrerIncome: z.string(),
});
export type OwnReferralMonth = z.infer<typeof ownReferralMonthSchema>;

/** `GET /v1/referrals/user?exchange&type=user&testnet&currency` (admin, referrer): your own referral data. */
export const ownReferralsQuerySchema = z
  .object({
    exchange: referralExchangeSchema.default(REFERRAL_DEFAULTS.exchange),
    type: z.literal('user').default('user'),
    testnet: z.stringbool().default(false),
    currency: currencySchema.default(REFERRAL_DEFAULTS.currency),
  })
  .refine((q) => q.currency === currencyOffered(q.exchange, q.currency), { path: ['currency'], message: 'XBT is offered only for BITMEX' });
export type OwnReferralsQuery = z.infer<typeof ownReferralsQuerySchema>;

export const ownReferralsSchema = z.object({
  referralCode: z.string(),
  /** How many accounts signed up with your link. */
  referredUsers: z.number().int().nonnegative(),
  data: z.array(ownReferralMonthSchema),
});
export type OwnReferrals = z.infer<typeof ownReferralsSchema>;

/**
 * `GET /v1/referrals` (admin): every referrer (role referrer, or anyone with referred users),
 * newest account first, with the referred volume (USD) and submitted income of the months from
 * `startAt` to `endAt` (inclusive; open-ended when absent) on `exchangeName` (both when absent).
 */
export const referrersQuerySchema = pageQuerySchema
  .extend({
    startAt: monthSchema.optional(),
    endAt: monthSchema.optional(),
    exchangeName: referralExchangeSchema.optional(),
    testnet: z.stringbool().default(false),
  })
  .refine((q) => !q.startAt || !q.endAt || q.startAt <= q.endAt, { path: ['endAt'], message: 'endAt must not be before startAt' });
export type ReferrersQuery = z.infer<typeof referrersQuerySchema>;

export const referrerSummarySchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  role: roleSchema,
  referralCode: z.string(),
  referredUsers: z.number().int().nonnegative(),
  /** Exact decimal strings, like every amount here. */
  totalReferrerVolume: z.string(),
  totalReferrerIncome: z.string(),
});
export type ReferrerSummary = z.infer<typeof referrerSummarySchema>;
export const referrersPageSchema = pagedSchema(referrerSummarySchema);
export type ReferrersPage = z.infer<typeof referrersPageSchema>;
