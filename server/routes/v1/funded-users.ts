import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyListSchema, apiKeySchema, createApiKeyBodySchema, patchApiKeyBodySchema } from '../../../src/api/contracts/api-keys';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import {
  addFundedUserBodySchema,
  createTransactionBodySchema,
  fundedUserSchema,
  fundedUsersPageSchema,
  fundedUsersQuerySchema,
  patchTradeSettingsBodySchema,
  tradeSettingsSchema,
  transactionSchema,
  transactionsPageSchema,
  transactionsQuerySchema,
  userApiKeyParamsSchema,
  userIdParamSchema,
} from '../../../src/api/contracts/funded-users';
import { forbidden } from '../../lib/http-error';
import { currentUser } from '../../plugins/authenticate';
import { createApiKey, deleteApiKey, getApiKey, listApiKeys, renameApiKey, toApiKeyDto } from '../../services/api-keys';
import { addFundedUser, listFundedUsers, removeFundedUser, requireUser } from '../../services/funded-users';
import type { KeyValidator } from '../../services/key-validation';
import { getTradeSettings, patchTradeSettings } from '../../services/trade-settings';
import { createTransaction, listTransactions, toTransactionDto } from '../../services/transactions';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const security = [{ bearerAuth: [] }];

export interface FundedUserRouteOptions {
  validator: KeyValidator;
}

/**
 * Under `/v1/users` (beside users.ts and settings.ts): funded users, their API keys and
 * transactions (admin), trade settings (admin; a user may read their own) and
 * `POST /v1/users/transactions` (SPEC §7).
 */
export const fundedUserRoutes: FastifyPluginAsyncZod<FundedUserRouteOptions> = async (app, opts) => {
  const admin = app.requireRole('admin');

  // ---- funded users ----
  app.get(
    '/funded',
    {
      onRequest: admin,
      schema: { tags: ['funded-users'], summary: 'Funded users, newest first, cursor-paged (admin)', security, querystring: fundedUsersQuerySchema, response: { 200: fundedUsersPageSchema, ...errors } },
    },
    async (req) => listFundedUsers(app.db, req.query),
  );

  app.post(
    '/funded',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Add a user to the funded list (admin); 409 when already there',
        security,
        body: addFundedUserBodySchema,
        response: { 201: fundedUserSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await addFundedUser(app.db, currentUser(req).id, req.body, app.events)),
  );

  app.delete(
    '/funded/:userId',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Remove a user from the funded list (admin); keys, settings and transactions stay',
        security,
        params: userIdParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await removeFundedUser(app.db, req.params.userId, app.events);
      return reply.code(204).send(null);
    },
  );

  // ---- trade settings ----
  app.get(
    '/settings/trade/:id',
    {
      onRequest: app.requireUser,
      schema: { tags: ['funded-users'], summary: 'Trade settings of a user (admin, or yourself)', security, params: idParamSchema, response: { 200: tradeSettingsSchema, ...errors } },
    },
    async (req) => {
      const me = currentUser(req);
      if (me.role !== 'admin' && me.id !== req.params.id) throw forbidden('You may only view your own trade settings');
      return getTradeSettings(app.db, req.params.id);
    },
  );

  app.patch(
    '/settings/trade',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Change a user’s trade settings (admin): each given field replaces the stored one',
        security,
        body: patchTradeSettingsBodySchema,
        response: { 200: tradeSettingsSchema, ...errors },
      },
    },
    async (req) => patchTradeSettings(app.db, currentUser(req).id, req.body, app.events),
  );

  // ---- transactions ----
  app.post(
    '/transactions',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['funded-users'],
        summary: 'Record a transaction on one of your API keys (admins: on any user’s, naming userId)',
        security,
        body: createTransactionBodySchema,
        response: { 201: transactionSchema, ...errors },
      },
    },
    async (req, reply) => {
      const me = currentUser(req);
      return reply.code(201).send(toTransactionDto(await createTransaction(app.db, { id: me.id, role: me.role }, req.body)));
    },
  );

  // ---- a user's API keys (admin) ----
  app.get(
    '/:userId/api-keys',
    {
      onRequest: admin,
      schema: { tags: ['funded-users'], summary: 'A user’s API keys (admin)', security, params: userIdParamSchema, response: { 200: apiKeyListSchema, ...errors } },
    },
    async (req) => {
      await requireUser(app.db, req.params.userId);
      return (await listApiKeys(app.db, req.params.userId)).map(toApiKeyDto);
    },
  );

  app.post(
    '/:userId/api-keys',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Add an API key for a user (admin): checked with the exchange, stored encrypted under the key password',
        security,
        params: userIdParamSchema,
        body: createApiKeyBodySchema,
        response: { 201: apiKeySchema, 502: errorResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      await requireUser(app.db, req.params.userId);
      const row = await createApiKey(app.db, opts.validator, req.params.userId, currentUser(req).id, req.body);
      return reply.code(201).send(toApiKeyDto(row));
    },
  );

  app.get(
    '/:userId/api-keys/:apiKeyId',
    {
      onRequest: admin,
      schema: { tags: ['funded-users'], summary: 'One API key of a user (admin)', security, params: userApiKeyParamsSchema, response: { 200: apiKeySchema, ...errors } },
    },
    async (req) => toApiKeyDto(await getApiKey(app.db, req.params.userId, req.params.apiKeyId)),
  );

  app.patch(
    '/:userId/api-keys/:apiKeyId',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Rename an API key of a user (admin)',
        security,
        params: userApiKeyParamsSchema,
        body: patchApiKeyBodySchema,
        response: { 200: apiKeySchema, ...errors },
      },
    },
    async (req) => toApiKeyDto(await renameApiKey(app.db, req.params.userId, req.params.apiKeyId, req.body.name)),
  );

  app.delete(
    '/:userId/api-keys/:apiKeyId',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Delete an API key of a user and its transactions (admin)',
        security,
        params: userApiKeyParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await deleteApiKey(app.db, app.events, req.params.userId, req.params.apiKeyId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:userId/api-keys/:apiKeyId/transactions',
    {
      onRequest: admin,
      schema: {
        tags: ['funded-users'],
        summary: 'Transactions of a user’s API key, newest first, cursor-paged (admin)',
        security,
        params: userApiKeyParamsSchema,
        querystring: transactionsQuerySchema,
        response: { 200: transactionsPageSchema, ...errors },
      },
    },
    async (req) => listTransactions(app.db, req.params.userId, req.params.apiKeyId, req.query),
  );
};
