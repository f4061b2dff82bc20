import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import { maintenanceSchema, setMaintenanceBodySchema } from '../../../src/api/contracts/maintenance';
import { currentUser } from '../../plugins/authenticate';
import { getMaintenance, setMaintenance } from '../../services/maintenance';

/** `/v1/maintenance` (SPEC §7): anyone reads the banner message; admins set it ('' clears it). */
export const maintenanceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '',
    { schema: { tags: ['maintenance'], summary: 'The maintenance banner message (null when none)', response: { 200: maintenanceSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return getMaintenance(app.db);
    },
  );

  app.post(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['maintenance'],
        summary: 'Set the message (admin); an empty string clears it',
        security: [{ bearerAuth: [] }],
        body: setMaintenanceBodySchema,
        response: { 200: maintenanceSchema, 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (req) => {
      const saved = await setMaintenance(app.db, req.body.message, currentUser(req).id);
      // Every open tab reads the banner again (tabs do not poll it while their socket is up); a bus outage costs only that.
      await app.events.publish('maintenance.changed', {}).catch((err: unknown) => req.log.warn({ err }, 'Could not tell the tabs the banner changed'));
      return saved;
    },
  );
};
