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
  cursor: z.string().min(1).optional(),
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
