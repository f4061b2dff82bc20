import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import { patchServerSettingsBodySchema, serverSettingsSchema } from '../../../src/api/contracts/settings';
import { currentUser } from '../../plugins/authenticate';
import { getServerSettings, patchServerSettings } from '../../services/settings';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };
const security = [{ bearerAuth: [] }];

/** `/v1/users/settings`: the signed-in user's server-side settings (SPEC §3), defaults filled in. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings',
    { onRequest: app.requireUser, schema: { tags: ['settings'], summary: 'Your server-side settings', security, response: { 200: serverSettingsSchema, ...errors } } },
    async (req) => getServerSettings(app.db, currentUser(req).id),
  );

  app.patch(
    '/settings',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['settings'],
        summary: 'Replace the given settings fields; answers the whole settings object',
        security,
        body: patchServerSettingsBodySchema,
        response: { 200: serverSettingsSchema, ...errors },
      },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const settings = await patchServerSettings(app.db, userId, req.body);
      // The user's other tabs read them again (`/v1/stream`).
      await app.events.publish('settings.changed', { userId });
      return settings;
    },
  );
};
