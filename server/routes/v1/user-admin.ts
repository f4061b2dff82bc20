import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import { resetPasswordBodySchema, resetPasswordResultSchema } from '../../../src/api/contracts/user-admin';
import { resetUserPassword } from '../../services/user-admin';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/** Admin actions on one user beyond `PATCH /v1/users/{id}`; mounted under `/v1/users`. */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/:id/reset-password',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['users'],
        summary: "Reset a user's password (admin): e-mail a reset link, or set a temporary password shown once",
        security: [{ bearerAuth: [] }],
        params: idParamSchema,
        body: resetPasswordBodySchema,
        response: { 200: resetPasswordResultSchema, ...errors },
      },
    },
    async (req) => resetUserPassword(app.authContext, req.params.id, req.body),
  );
};
