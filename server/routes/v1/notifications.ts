import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import {
  listNotificationsQuerySchema,
  markNotificationsReadBodySchema,
  markNotificationsReadResultSchema,
  notificationListSchema,
} from '../../../src/api/contracts/notifications';
import { currentUser } from '../../plugins/authenticate';
import { activityEntrySchema } from '../../../src/api/contracts/trading';
import { listActivity } from '../../services/jobs/managed-brackets';
import { listNotifications, markNotificationsRead } from '../../services/notifications';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['notifications'];

/**
 * `/v1/notifications`: what the server told the signed-in user (alerts it fired with no tab open,
 * actions of server-side jobs), newest first, with the unread count for the top bar's bell. The open
 * app hears new ones on `/v1/stream` (app-stream.ts) and reads this list at start and while that is down.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '',
    {
      onRequest: app.requireUser,
      schema: { tags, summary: 'Your newest notifications and the unread count', security, querystring: listNotificationsQuerySchema, response: { 200: notificationListSchema, ...errors } },
    },
    async (req) => listNotifications(app.db, currentUser(req).id, req.query.limit ?? 30),
  );

  app.post(
    '/read',
    {
      onRequest: app.requireUser,
      schema: { tags, summary: 'Mark the given notifications (or all) read', security, body: markNotificationsReadBodySchema, response: { 200: markNotificationsReadResultSchema, ...errors } },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const result = await markNotificationsRead(app.db, userId, req.body);
      // The user's other tabs (on any instance) update their bell through `/v1/stream`.
      await app.events.publish('notification.read', { userId, ids: req.body.ids ?? null, unread: result.unread });
      return result;
    },
  );

  app.get(
    '/activity',
    {
      onRequest: app.requireUser,
      schema: { tags, summary: 'The activity log: every action server-side jobs took for you (newest first, 100)', security, response: { 200: z.array(activityEntrySchema), ...errors } },
    },
    async (req) => listActivity(app.db, currentUser(req).id),
  );
};
