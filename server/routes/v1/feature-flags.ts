import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import {
  createFeatureFlagBodySchema,
  featureFlagListSchema,
  featureFlagMapSchema,
  featureFlagSchema,
  updateFeatureFlagBodySchema,
} from '../../../src/api/contracts/feature-flags';
import {
  createFeatureFlag,
  deleteFeatureFlag,
  getFeatureFlagMap,
  listFeatureFlags,
  toFeatureFlagDto,
  updateFeatureFlag,
} from '../../services/feature-flags';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const security = [{ bearerAuth: [] }];

/** `/v1/feature-flags` (SPEC §7): the map is public (the app needs it before sign-in); changes are admin-only. */
export const featureFlagRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/json',
    { schema: { tags: ['feature-flags'], summary: 'Every flag by name (SPEC defaults filled in)', response: { 200: featureFlagMapSchema } } },
    async (_req, reply) => {
      // "Never stale" (SPEC §7): no HTTP caching either.
      reply.header('cache-control', 'no-store');
      return getFeatureFlagMap(app.db);
    },
  );

  app.get(
    '',
    { onRequest: app.requireUser, schema: { tags: ['feature-flags'], summary: 'Flag list', security, response: { 200: featureFlagListSchema, ...errors } } },
    async () => (await listFeatureFlags(app.db)).map(toFeatureFlagDto),
  );

  app.post(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['feature-flags'], summary: 'Create a flag (admin)', security, body: createFeatureFlagBodySchema, response: { 201: featureFlagSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(toFeatureFlagDto(await createFeatureFlag(app.db, req.body))),
  );

  app.put(
    '/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['feature-flags'],
        summary: 'Update a flag (admin); built-in flags cannot be renamed',
        security,
        params: idParamSchema,
        body: updateFeatureFlagBodySchema,
        response: { 200: featureFlagSchema, ...errors },
      },
    },
    async (req) => toFeatureFlagDto(await updateFeatureFlag(app.db, req.params.id, req.body)),
  );

  app.delete(
    '/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['feature-flags'],
        summary: 'Delete an admin-made flag (admin); built-in flags are switched off instead',
        security,
        params: idParamSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (req, reply) => {
      await deleteFeatureFlag(app.db, req.params.id);
      return reply.code(204).send();
    },
  );
};
