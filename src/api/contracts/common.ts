import { z } from 'zod';

/** Every error the API answers: a human message, plus per-field messages for validation errors. */
export const errorResponseSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A plain `{ message }` answer (e.g. success messages shown as toasts). */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Cursor paging meta (SPEC §3 "Paged lists"). A null cursor means there is no page that way. */
export const pageMetaSchema = z.object({
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

export const pagedSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: pageMetaSchema });
export type Paged<T> = { data: T[]; meta: PageMeta };

/** Query params of every cursor-paged list. */
export const pageQuerySchema = z.object({
  cursor: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ROLES = ['user', 'referrer', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Exchanges the product trades on (SPEC §3). */
export const EXCHANGE_IDS = ['binance', 'bitmex', 'bybit', 'okx'] as const;
export const exchangeIdSchema = z.enum(EXCHANGE_IDS);
export type ExchangeId = z.infer<typeof exchangeIdSchema>;

/** Display names exactly per SPEC §3; ftx is listed but is not tradeable and has no icon. */
export const EXCHANGE_DISPLAY_NAMES = {
  binance: 'binance',
  bitmex: 'BitMEX',
  bybit: 'bybit',
  okx: 'okx',
  ftx: 'ftx',
} as const;

export const NETWORKS = ['MAINNET', 'TESTNET'] as const;
export const networkSchema = z.enum(NETWORKS);
export type Network = z.infer<typeof networkSchema>;

export const CURRENCIES = ['USD', 'XBT'] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

export const MARKET_CATEGORIES = ['linear', 'inverse', 'option'] as const;
export const marketCategorySchema = z.enum(MARKET_CATEGORIES);
export type MarketCategory = z.infer<typeof marketCategorySchema>;

export const idParamSchema = z.object({ id: z.uuid() });

// ---- what the database holds (issue "Hardening": bad input answers 4xx, never 500) ----

/**
 * Digits after the point of `n` as JavaScript writes it (`String(n)`: the shortest text that
 * reads back as the same number, i.e. what the user typed for any hand-typed value): `0.25` → 2,
 * `1e-9` → 9, `5e-324` → 324, `1e21` → 0.
 */
export function decimalPlaces(n: number): number {
  const [mantissa, exponent = '0'] = Math.abs(n).toString().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * `schema` narrowed to what a PostgreSQL `numeric(precision, scale)` column stores exactly. More
 * decimals than `scale` are refused, not rounded: PostgreSQL would round them silently (`5e-324`
 * to 0, past the "cannot be 0" rules) and money must not change on the way in. Past
 * `precision − scale` digits before the point PostgreSQL refuses the value outright (a 500 before).
 */
export function decimalSchema(schema: z.ZodNumber, column: { precision: number; scale: number }): z.ZodNumber {
  const digits = column.precision - column.scale;
  return schema
    .refine((n) => Math.abs(n) < 10 ** digits, `At most ${digits} digits before the decimal point`)
    .refine((n) => decimalPlaces(n) <= column.scale, `Use at most ${column.scale} decimal places`);
}

/**
 * The instants a PostgreSQL timestamptz and a JS Date both hold and write alike: years 1 to 9999,
 * UTC. A cursor may point anywhere in this range (services/keyset-page.ts).
 */
export const INSTANT_MIN_MS = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
export const INSTANT_MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
export const isStorableInstant = (ms: number): boolean => Number.isFinite(ms) && ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;

/**
 * Dates accepted as input: the years 1900 to 9999 (UTC). Earlier ones are no trading data, and
 * not every one survives the trip back from the database: the driver's text is read by `Date`,
 * which takes `0005-06-01 00:00:00+00` for 2001-05-06.
 */
export const INPUT_YEAR_MIN = 1900;
export const INPUT_INSTANT_MIN_MS = Date.UTC(INPUT_YEAR_MIN, 0, 1);
export const isAcceptedInstant = (ms: number): boolean => isStorableInstant(ms) && ms >= INPUT_INSTANT_MIN_MS;

/**
 * An ISO 8601 date-time with an offset, in the years 1900 to 9999 once converted to UTC
 * (`9999-12-31T23:30:00-01:00` is already 10000).
 */
export const instantSchema = (message: string) =>
  z.iso.datetime({ offset: true, message }).refine((v) => isAcceptedInstant(Date.parse(v)), `Use a date between the years ${INPUT_YEAR_MIN} and 9999`);

/** How deep a JSON value nests (a scalar is 0, `{}` is 1), counted without recursion so any depth is safe. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}
