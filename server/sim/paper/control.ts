import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { queryOf, sendJson } from '../context';
import type { SimHub } from '../hub';
import { SIM_EXCHANGES, type SimExchange } from '../market/catalogue';
import { faultBodySchema } from './faults';
import type { Paper } from './index';

const resetSchema = z.object({
  apiKey: z.string().min(1).max(200),
  exchange: z.enum(SIM_EXCHANGES),
  network: z.enum(['MAINNET', 'TESTNET']).default('MAINNET'),
});

/**
 * The paper exchange's test hooks, behind the sim's control guard (an admin token in the product,
 * open in the standalone test sim):
 * - `POST /sim/_control/reset-account` `{ apiKey, exchange, network? }` (body or query; `key` is an
 *   alias of apiKey): the account starts over with its starting balances.
 * - `POST /sim/_control/faults` `{ exchange, latencyMs?, unavailable?, rateLimit?, dropPrivateSockets? }`
 *   sets an exchange's faults (merged with what is set); `{ exchange?, clear: true }` or
 *   `DELETE /sim/_control/faults[?exchange=]` clears them; `GET` shows them.
 */
export function registerPaperControl(app: FastifyInstance, deps: { onRequest: onRequestAsyncHookHandler; paper: Paper; hub: SimHub }): void {
  const { onRequest, paper, hub } = deps;

  app.post('/_control/reset-account', { onRequest }, async (req, reply) => {
    const q = queryOf(req);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const parsed = resetSchema.safeParse({ apiKey: body.apiKey ?? body.key ?? q.apiKey ?? q.key, exchange: body.exchange ?? q.exchange, network: body.network ?? q.network });
    if (!parsed.success) return sendJson(reply, 400, { message: `Invalid ${parsed.error.issues[0]?.path.join('.') || 'input'}: ${parsed.error.issues[0]?.message}` });
    const runtime = paper.runtimes.get(parsed.data.exchange);
    if (!runtime) return sendJson(reply, 404, { message: `The paper exchange does not trade on ${parsed.data.exchange} yet.` });
    await runtime.reset(parsed.data);
    return sendJson(reply, 200, { reset: true, ...parsed.data });
  });

  app.post('/_control/faults', { onRequest }, async (req, reply) => {
    const parsed = faultBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) return sendJson(reply, 400, { message: `Invalid ${parsed.error.issues[0]?.path.join('.') || 'input'}: ${parsed.error.issues[0]?.message}` });
    const { exchange, clear, ...patch } = parsed.data;
    if (clear) {
      paper.faults.clear(exchange);
      return sendJson(reply, 200, { faults: paper.faults.all() });
    }
    if (!exchange) return sendJson(reply, 400, { message: 'Invalid exchange: required unless clear is true' });
    paper.faults.set(exchange, patch);
    const dropped = patch.dropPrivateSockets ? hub.drop(exchange, 'private') : 0;
    return sendJson(reply, 200, { faults: paper.faults.all(), dropped });
  });

  app.get('/_control/faults', { onRequest }, async (_req, reply) => sendJson(reply, 200, { faults: paper.faults.all() }));

  app.delete('/_control/faults', { onRequest }, async (req, reply) => {
    const exchange = queryOf(req).exchange;
    if (exchange !== undefined && !(SIM_EXCHANGES as readonly string[]).includes(exchange)) return sendJson(reply, 400, { message: `Unknown exchange ${exchange}` });
    paper.faults.clear(exchange as SimExchange | undefined);
    return sendJson(reply, 200, { faults: paper.faults.all() });
  });
}
