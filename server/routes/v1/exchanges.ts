import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, errorResponseSchema, type ExchangeId } from '../../../src/api/contracts/common';
import {
  exchangeInfoParamsSchema,
  exchangeInfoQuerySchema,
  exchangeListSchema,
  instrumentListSchema,
  tradingPairListSchema,
  type ExchangeSummary,
  type TradingPair,
} from '../../../src/api/contracts/exchanges';
import { EXCHANGE_FEATURE_FLAGS as EXCHANGE_FLAGS, type FeatureFlagKey } from '../../../src/api/contracts/feature-flags';
import { notFound } from '../../lib/http-error';
import { filterInstruments, type ExchangeInfoService } from '../../services/exchange-info';


export interface ExchangeRoutesOptions {
  exchangeInfo: ExchangeInfoService;
  /** The foundation's flag service (reads the stored flags, SPEC defaults otherwise). */
  isFlagEnabled: (key: FeatureFlagKey) => Promise<boolean>;
}

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 502: errorResponseSchema };
const security = [{ bearerAuth: [] }];

/**
 * `GET /v1/exchanges` (public: the same facts as the public flag map), and, signed in,
 * `GET /v1/exchange-account/exchange-info/{id}` and `GET /v1/exchanges/all-trading-pairs` (SPEC §7).
 * Instrument lists come from `ExchangeInfoService` (cached, stale-while-revalidate).
 */
export const exchangeRoutes: FastifyPluginAsyncZod<ExchangeRoutesOptions> = async (app, opts) => {
  const enabledMap = async (): Promise<Record<ExchangeId, boolean>> => {
    const entries = await Promise.all(EXCHANGE_IDS.map(async (id) => [id, EXCHANGE_FLAGS[id] ? await opts.isFlagEnabled(EXCHANGE_FLAGS[id]) : true] as const));
    return Object.fromEntries(entries) as Record<ExchangeId, boolean>;
  };

  app.get(
    '/exchanges',
    { schema: { tags: ['exchanges'], summary: 'The exchanges, with display names and whether each is enabled', response: { 200: exchangeListSchema } } },
    async (_req, reply) => {
      // "Never stale" (SPEC §7): a flag change shows on the next call.
      reply.header('cache-control', 'no-store');
      const enabled = await enabledMap();
      return EXCHANGE_IDS.map((id): ExchangeSummary => ({ id, name: EXCHANGE_DISPLAY_NAMES[id], enabled: enabled[id] }));
    },
  );

  app.get(
    '/exchange-account/exchange-info/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['exchanges'],
        summary: "An exchange's perpetual instruments (tick size, lot size, contract value...)",
        security,
        params: exchangeInfoParamsSchema,
        querystring: exchangeInfoQuerySchema,
        response: { 200: instrumentListSchema, ...errors },
      },
    },
    async (req) => {
      const { id } = req.params;
      const flag = EXCHANGE_FLAGS[id];
      if (flag && !(await opts.isFlagEnabled(flag))) throw notFound(`${EXCHANGE_DISPLAY_NAMES[id]} is not enabled`);
      return filterInstruments(await opts.exchangeInfo.instruments(id, req.query.testnet), req.query.filter);
    },
  );

  app.get(
    '/exchanges/all-trading-pairs',
    {
      onRequest: app.requireUser,
      schema: { tags: ['exchanges'], summary: 'Every mainnet pair of every enabled exchange', security, response: { 200: tradingPairListSchema, ...errors } },
    },
    async () => {
      const enabled = await enabledMap();
      const ids = EXCHANGE_IDS.filter((id) => enabled[id]);
      // Concurrently: each exchange answers from its cache or its own fetch; one failure fails the
      // call (502 naming it) rather than returning a list that would prune that exchange's favourites.
      const lists = await Promise.all(ids.map((id) => opts.exchangeInfo.instruments(id, false)));
      return ids.flatMap((exchange, k) =>
        lists[k].map((i): TradingPair => ({ exchange, symbol: i.symbol, exchangeSymbol: i.exchangeSymbol, base: i.base, quote: i.quote, category: i.category })),
      );
    },
  );
};
