import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  KEY_PASSWORD_HEADER,
  keyPasswordHeadersSchema,
  patchApiKeyBodySchema,
  simCredentialsBodySchema,
  simCredentialsSchema,
  unlockApiKeyBodySchema,
} from '../../../src/api/contracts/api-keys';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import { transactionsPageSchema, transactionsQuerySchema } from '../../../src/api/contracts/funded-users';
import { notFound } from '../../lib/http-error';
import { humanDuration } from '../../lib/retry-later';
import { currentUser } from '../../plugins/authenticate';
import { createApiKey, deleteApiKey, getApiKey, listApiKeys, openApiKey, renameApiKey, simCredentials, toApiKeyDto, verifyApiKey } from '../../services/api-keys';
import type { InjectFn, KeyValidator } from '../../services/key-validation';
import { setServerCustody } from '../../services/jobs/managed-brackets';
import { listTransactions } from '../../services/transactions';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
/** Routes that derive a key password (scrypt): 429 past the wrong-password limits, 503 when the scrypt slots are full. */
const scryptErrors = { 429: errorResponseSchema, 503: errorResponseSchema };
const security = [{ bearerAuth: [] }];

export interface ApiKeyRouteOptions {
  validator: KeyValidator;
  /** Set in simulator mode: reaches `/sim` in-process (sim credentials). */
  simInject: InjectFn | null;
}

/**
 * `/v1/api-keys`: the signed-in user's exchange API keys (DESIGN §3). No answer carries a key,
 * secret or passphrase; bodies of these routes are never logged (app.ts redaction).
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<ApiKeyRouteOptions> = async (app, opts) => {
  // Per signed-in user (the rate-limit hook runs after requireUser): each call reaches the simulator.
  const simCredentialsLimit = {
    max: app.config.SIM_CREDENTIALS_RATE_LIMIT_MAX,
    timeWindow: app.config.AUTH_RATE_LIMIT_WINDOW_MS,
    keyGenerator: (req: FastifyRequest) => `user:${req.authUser?.id ?? req.ip}`,
  };

  app.get(
    '',
    { onRequest: app.requireUser, schema: { tags: ['api-keys'], summary: 'Your API keys, newest first', security, response: { 200: apiKeyListSchema, ...errors } } },
    async (req) => (await listApiKeys(app.db, currentUser(req).id)).map(toApiKeyDto),
  );

  app.post(
    '',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['api-keys'],
        summary: 'Add a key: checked with the exchange (not stored if refused), stored encrypted under the key password',
        security,
        body: createApiKeyBodySchema,
        response: { 201: apiKeySchema, 502: errorResponseSchema, 503: errorResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      const me = currentUser(req);
      const row = await createApiKey(app.db, opts.validator, me.id, me.id, req.body);
      return reply.code(201).send(toApiKeyDto(row));
    },
  );

  app.post(
    '/sim-credentials',
    {
      onRequest: app.requireUser,
      config: { rateLimit: simCredentialsLimit },
      schema: {
        tags: ['api-keys'],
        summary: 'Simulator mode only: a key and secret the market simulator accepts',
        security,
        body: simCredentialsBodySchema,
        response: { 200: simCredentialsSchema, 429: errorResponseSchema, ...errors },
      },
    },
    async (req) => {
      if (!opts.simInject) throw notFound('Simulator keys exist only in simulator mode (MARKET_DATA=sim)');
      return simCredentials(opts.simInject, req.body);
    },
  );

  app.get(
    '/:id',
    { onRequest: app.requireUser, schema: { tags: ['api-keys'], summary: 'One of your API keys', security, params: idParamSchema, response: { 200: apiKeySchema, ...errors } } },
    async (req) => toApiKeyDto(await getApiKey(app.db, currentUser(req).id, req.params.id)),
  );

  app.patch(
    '/:id',
    {
      onRequest: app.requireUser,
      schema: { tags: ['api-keys'], summary: 'Rename one of your API keys', security, params: idParamSchema, body: patchApiKeyBodySchema, response: { 200: apiKeySchema, ...errors } },
    },
    async (req) => toApiKeyDto(await renameApiKey(app.db, currentUser(req).id, req.params.id, req.body.name)),
  );

  app.delete(
    '/:id',
    {
      onRequest: app.requireUser,
      schema: { tags: ['api-keys'], summary: 'Delete one of your API keys (and its transactions)', security, params: idParamSchema, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await deleteApiKey(app.db, app.events, currentUser(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/verify',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['api-keys'],
        summary:
          `Check the key with the exchange again (key password in ${KEY_PASSWORD_HEADER}); 403 '${'Wrong key password'}' when it does not open the key, ` +
          `429 with Retry-After after ${app.config.KEY_PASSWORD_MAX_PER_KEY} wrong ones for the key or ${app.config.KEY_PASSWORD_MAX_PER_USER} for the user ` +
          `in ${humanDuration(app.config.KEY_PASSWORD_WINDOW_MS)}`,
        security,
        params: idParamSchema,
        headers: keyPasswordHeadersSchema,
        response: { 200: apiKeySchema, 502: errorResponseSchema, ...scryptErrors, ...errors },
      },
    },
    async (req) =>
      toApiKeyDto(await verifyApiKey(app.db, opts.validator, app.keyPasswordLimiter, currentUser(req).id, req.params.id, req.headers[KEY_PASSWORD_HEADER])),
  );

  // Unlocking in a trading panel (issues 22, 25): the password is checked before the panels trade with
  // it, so a wrong one keeps the unlock form (and counts against the guessing limits like any other);
  // a right one keeps the key unlocked for this sign-in, so its trading calls skip the derivation.
  app.post(
    '/:id/unlock',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['api-keys'],
        summary:
          `Unlock the key for this sign-in with its key password (in ${KEY_PASSWORD_HEADER}): 204, or 403 'Wrong key password'; 429 with Retry-After past the guessing limits. ` +
          `Trading calls of this sign-in then need no password until it is locked, unused for ${humanDuration(app.config.KEY_UNLOCK_IDLE_MS)}, or older than ` +
          `${humanDuration(app.config.KEY_UNLOCK_MAX_MS)} (${humanDuration(app.config.KEY_UNLOCK_REMEMBERED_MAX_MS)} with remember: true)`,
        security,
        params: idParamSchema,
        headers: keyPasswordHeadersSchema,
        body: unlockApiKeyBodySchema,
        response: { 204: z.null(), ...scryptErrors, ...errors },
      },
    },
    async (req, reply) => {
      const me = currentUser(req);
      const row = await getApiKey(app.db, me.id, req.params.id);
      const password = req.headers[KEY_PASSWORD_HEADER];
      const creds = await openApiKey(app.keyPasswordLimiter, row, password);
      app.unlockCache.put({ sessionId: me.familyId, userId: me.id }, row.id, password, creds, req.body?.remember === true, row);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/:id/unlock',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['api-keys'],
        summary: `Lock the key for this sign-in, on every instance: its trading calls need ${KEY_PASSWORD_HEADER} (or a new unlock) again`,
        security,
        params: idParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const me = currentUser(req);
      const row = await getApiKey(app.db, me.id, req.params.id);
      await app.events.publish('api-key.locked', { apiKeyId: row.id, userId: me.id, familyId: me.familyId });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/transactions',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['api-keys'],
        summary: 'Transactions recorded on one of your keys, newest first, cursor-paged',
        security,
        params: idParamSchema,
        querystring: transactionsQuerySchema,
        response: { 200: transactionsPageSchema, ...errors },
      },
    },
    async (req) => listTransactions(app.db, currentUser(req).id, req.params.id, req.query),
  );

  // Server custody (issues 13, 21): the owner's consent to keep the key's credentials sealed on the
  // server while its brackets are guarded. Turning it off deletes them and stops guarding the key's
  // brackets — refused while a bracket waits for its entry (the server is to place that stop).
  app.put(
    '/:id/server-custody',
    {
      onRequest: app.requireUser,
      schema: { tags: ['api-keys'], summary: 'Allow the server to guard brackets with this key (credentials sealed while they run); 409 when the server has no SERVER_SECRET', security, params: idParamSchema, response: { 200: apiKeySchema, ...errors, 409: errorResponseSchema } },
    },
    async (req) => toApiKeyDto(await setServerCustody(app.db, app.events, currentUser(req).id, req.params.id, true, Boolean(app.config.SERVER_SECRET))),
  );

  app.delete(
    '/:id/server-custody',
    {
      onRequest: app.requireUser,
      schema: { tags: ['api-keys'], summary: 'Withdraw it: sealed credentials deleted, guarding of the key\'s brackets stopped (orders stay); 409 while a bracket waits for its entry', security, params: idParamSchema, response: { 200: apiKeySchema, ...errors, 409: errorResponseSchema } },
    },
    async (req) => toApiKeyDto(await setServerCustody(app.db, app.events, currentUser(req).id, req.params.id, false)),
  );
};
