import { z } from 'zod';
import { exchangeIdSchema } from './common';

export const MARKET_DATA_MODES = ['live', 'sim'] as const;
export const marketDataModeSchema = z.enum(MARKET_DATA_MODES);
export type MarketDataMode = z.infer<typeof marketDataModeSchema>;

/** Where the SPA's market adapters send REST and WebSocket traffic for one exchange. */
export const exchangeEndpointsSchema = z.object({
  rest: z.string(),
  restTestnet: z.string(),
  ws: z.string(),
  wsTestnet: z.string(),
});
export type ExchangeEndpoints = z.infer<typeof exchangeEndpointsSchema>;

/** `GET /v1/config` (public): what the SPA needs at run time, so no rebuild changes it. */
export const appConfigSchema = z.object({
  productName: z.string(),
  marketData: marketDataModeSchema,
  version: z.string(),
  sentryDsn: z.string().nullable(),
  /** True when the server sends e-mail (SMTP configured): alert e-mails can be turned on. */
  mail: z.boolean(),
  /**
   * True when this server can hold exchange credentials sealed (SERVER_SECRET), which guarding a
   * bracket needs; false in production without SERVER_SECRET in the environment: brackets are refused.
   */
  custody: z.boolean(),
  /** Base URLs per exchange; in sim mode they point at `/sim/<exchange>` on this server. */
  exchanges: z.record(exchangeIdSchema, exchangeEndpointsSchema),
});
export type AppConfig = z.infer<typeof appConfigSchema>;
