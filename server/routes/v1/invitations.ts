import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import { createdInvitationsSchema, createInvitationsBodySchema, invitationSchema, invitationsPageSchema, invitationsQuerySchema } from '../../../src/api/contracts/invitations';
import { currentUser } from '../../plugins/authenticate';
import { generateInvitations, listInvitations, revokeInvitationById } from '../../services/invitation-list';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['invitations'];

/** `/v1/invitations` (admin, DESIGN §4): generate, list with status, revoke. */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags, summary: 'Invitations, newest first, cursor-paged (admin)', security, querystring: invitationsQuerySchema, response: { 200: invitationsPageSchema, ...errors } },
    },
    async (req) => listInvitations(app.db, req.query),
  );

  app.post(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags,
        summary: 'Generate `count` invitation codes with an optional expiry, e-mail and role (admin)',
        security,
        body: createInvitationsBodySchema,
        response: { 201: createdInvitationsSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send({ data: await generateInvitations(app.db, req.body, currentUser(req).id) }),
  );

  app.delete(
    '/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags, summary: 'Revoke an invitation (admin)', security, params: idParamSchema, response: { 200: invitationSchema, ...errors } },
    },
    async (req) => revokeInvitationById(app.db, req.params.id),
  );
};
