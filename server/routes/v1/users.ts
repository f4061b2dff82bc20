import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import { patchUserBodySchema, userSchema, usersPageSchema, usersQuerySchema } from '../../../src/api/contracts/users';
import { forbidden, notFound } from '../../lib/http-error';
import { currentUser } from '../../plugins/authenticate';
import { findUserById, listUsers, patchUser, toUserDto } from '../../services/users';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const security = [{ bearerAuth: [] }];

/** `/v1/users` (SPEC §7). `/settings` lives in settings.ts under the same prefix. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    { onRequest: app.requireUser, schema: { tags: ['users'], summary: 'The signed-in user', security, response: { 200: userSchema, ...errors } } },
    async (req) => toUserDto(currentUser(req).row),
  );

  app.get(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['users'],
        summary: 'Users, newest first, cursor-paged (admin); `query` searches emails',
        security,
        querystring: usersQuerySchema,
        response: { 200: usersPageSchema, ...errors },
      },
    },
    async (req) => {
      const page = await listUsers(app.db, req.query);
      return { data: page.data.map(toUserDto), meta: page.meta };
    },
  );

  app.get(
    '/:id',
    {
      onRequest: app.requireUser,
      schema: { tags: ['users'], summary: 'One user (admin, or yourself)', security, params: idParamSchema, response: { 200: userSchema, ...errors } },
    },
    async (req) => {
      const me = currentUser(req);
      if (me.role !== 'admin' && me.id !== req.params.id) throw forbidden('You may only view your own account');
      const user = await findUserById(app.db, req.params.id);
      if (!user) throw notFound('User not found');
      return toUserDto(user);
    },
  );

  app.patch(
    '/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['users'],
        summary: 'Change a user (admin: email, role, password; yourself: only password)',
        security,
        params: idParamSchema,
        body: patchUserBodySchema,
        response: { 200: userSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (req) => {
      const me = currentUser(req);
      const updated = await patchUser(app.db, { id: me.id, role: me.role, familyId: me.familyId }, req.params.id, req.body, app.events);
      return toUserDto(updated);
    },
  );
};
