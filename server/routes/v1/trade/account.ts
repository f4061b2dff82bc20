import { z } from 'zod';
import { tradeLimitsStatusSchema } from '../../../../src/api/contracts/funded-users';
import { messageResponseSchema } from '../../../../src/api/contracts/common';
import {
  balanceSchema,
  closePositionBodySchema,
  leverageBodySchema,
  marginModeBodySchema,
  orderSchema,
  positionSchema,
  symbolQuerySchema,
  symbolSettingsQuerySchema,
  symbolSettingsSchema,
} from '../../../../src/api/contracts/trading';
import { HttpError } from '../../../lib/http-error';
import { getApiKey } from '../../../services/api-keys';
import { leverageProblem } from '../../../services/trading/leverage-rules';
import { tradeLimitsStatus, limitsFor } from '../../../services/trading/limits';
import { closePosition } from '../../../services/trading/orders';
import { errors, type TradeApp, type TradeRouteContext } from './context';

/** The account's reads: balance, positions, a symbol's leverage and margin mode, the funded user's day. */
export function accountReadRoutes(app: TradeApp, { opts, params, session, route }: TradeRouteContext): void {
  app.get('/balance', route('Balance: total, available, unrealised PnL, margin in use', { params, response: { 200: balanceSchema, ...errors } }), async (req) => {
    const s = await session(req);
    return s.run((c) => c.balance());
  });

  app.get('/positions', route('Open positions (optionally of one symbol)', { params, querystring: symbolQuerySchema, response: { 200: z.array(positionSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = req.query.symbol ? s.instrument(req.query.symbol) : undefined;
    return s.run((c) => c.positions(inst));
  });

  app.get(
    '/symbol-settings',
    route("A symbol's leverage and margin mode as the exchange holds them for the key, with or without a position (what its next order is margined with)", {
      params,
      querystring: symbolSettingsQuerySchema,
      response: { 200: symbolSettingsSchema, ...errors },
    }),
    async (req) => {
      const s = await session(req);
      const inst = s.instrument(req.query.symbol);
      return s.run((c) => c.symbolSettings(inst));
    },
  );

  app.get(
    '/limits',
    route("Funded users: today's loss (every symbol, realised − fees + open PnL, USD) against the daily loss limit, and whether new risk is locked until 00:00 UTC", {
      params,
      response: { 200: tradeLimitsStatusSchema, ...errors },
    }),
    async (req) => tradeLimitsStatus(opts.db, await session(req), opts.funded),
  );
}

/** The position and the symbol's settings: close (part of) a position, leverage, margin mode. */
export function positionRoutes(app: TradeApp, { opts, params, ownerOf, session, once, recordAfter, route }: TradeRouteContext): void {
  app.post(
    '/positions/close',
    route('Close a percentage of a position at market or at a limit price (reduce-only)', { params, body: closePositionBodySchema, response: { 201: orderSchema, ...errors } }),
    async (req, reply) => {
      const s = await session(req);
      const answer = await once(s, req.body.clientOrderId, { route: 'close', body: req.body, field: 'clientOrderId' }, async (reconcile) => ({ status: 201 as const, body: await closePosition(s, req.body, reconcile) }));
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.put('/leverage', route("Set a symbol's leverage", { params, body: leverageBodySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    // The exchange's own rules (leverage-rules.ts) before the key is opened: nothing is sent, no password is tried.
    const { exchange } = await getApiKey(opts.db, await ownerOf(req), req.params.apiKeyId);
    const problem = leverageProblem(exchange, req.body.leverage);
    if (problem) throw new HttpError(400, `Invalid leverage: ${problem}`, { leverage: problem });
    const s = await session(req);
    const inst = s.instrument(req.body.symbol);
    await (await limitsFor(opts.db, s.key.userId, opts.funded)).leverage(s, inst, req.body.leverage);
    await s.run((c) => c.setLeverage(inst, req.body.leverage));
    return { message: `Leverage of ${inst.symbol} set to ${req.body.leverage}×` };
  });

  app.put('/margin-mode', route("Set a symbol's margin mode (Bybit: the whole account)", { params, body: marginModeBodySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.body.symbol);
    await s.run((c) => c.setMarginMode(inst, req.body.marginMode));
    return { message: `Margin mode of ${inst.symbol} set to ${req.body.marginMode.toLowerCase()}` };
  });
}
