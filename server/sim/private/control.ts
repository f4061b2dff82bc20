import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { queryOf, sendJson } from '../context';
import { SIM_EXCHANGES } from '../market/catalogue';
import type { SimKeyring } from './keyring';

const flag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean().optional());

const mintSchema = z
  .object({
    exchange: z.enum(SIM_EXCHANGES),
    label: z
      .string()
      .regex(/^[a-z0-9]{0,20}$/i, 'Use up to 20 letters and digits')
      .optional(),
    withdraw: flag,
    readonly: flag,
  })
  .strict();

/**
 * `POST /sim/_control/credentials` `{ exchange, label?, withdraw?, readonly? }` (body or query), behind
 * the sim's control guard (an admin token in the product; the API's own in-process call passes):
 * mints a key `sim-<label>[-withdraw][-readonly]-<8 hex>` with a random secret and passphrase, stored
 * sealed before the answer `{ apiKey, apiSecret, passphrase, exchange }` — the only time they are shown.
 */
export function registerCredentialsControl(app: FastifyInstance, deps: { onRequest: onRequestAsyncHookHandler; keys: SimKeyring }): void {
  app.post('/_control/credentials', { onRequest: deps.onRequest }, async (req, reply) => {
    const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
    const parsed = mintSchema.safeParse({ ...queryOf(req), ...body });
    if (!parsed.success) return sendJson(reply, 400, { message: `Invalid ${parsed.error.issues[0]?.path.join('.') || 'input'}: ${parsed.error.issues[0]?.message}` });
    const { exchange, ...name } = parsed.data;
    const key = await deps.keys.mint(exchange, name);
    return sendJson(reply, 200, { apiKey: key.apiKey, apiSecret: key.secret, passphrase: key.passphrase, exchange: key.exchange });
  });
}

/** The key ring of the simulator served by an app (any instance of it: the root, a scope), for test support. */
const keyrings = new WeakMap<object, SimKeyring>();

export function rememberKeyring(app: FastifyInstance, keys: SimKeyring): void {
  keyrings.set(app.server, keys);
}

/** The key ring of the simulator mounted in `app` (test clients mint their keys there), or null. */
export function simKeyringOf(app: FastifyInstance): SimKeyring | null {
  return keyrings.get(app.server) ?? null;
}
