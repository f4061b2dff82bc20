import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alertListSchema,
  alertSchema,
  clearAlertsQuerySchema,
  clearAlertsResultSchema,
  createAlertBodySchema,
  listAlertsQuerySchema,
  rearmAlertBodySchema,
  updateAlertBodySchema,
} from '../../../src/api/contracts/alerts';
import { errorResponseSchema, idParamSchema } from '../../../src/api/contracts/common';
import { currentUser } from '../../plugins/authenticate';
import {
  activeAlertEvent,
  assertAlertsEnabled,
  clearTriggeredAlerts,
  createAlert,
  deleteAlert,
  listAlerts,
  rearmAlert,
  toAlertDto,
  updateAlert,
} from '../../services/alerts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['alerts'];

/**
 * `/v1/alerts`: the signed-in user's price alerts (SPEC §3). Every route needs a user (401) and the
 * FF_ENABLE_ALERTS flag (403 while off — checked before the input, so a turned-off feature says so
 * whatever is sent); another user's alert is 404, never 403, so ids reveal nothing.
 */
export const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  const onRequest = [app.requireUser, async () => assertAlertsEnabled(app.db)];
  /**
   * What an edit answers, once the user's other tabs are told to read their alerts again (issue 26: they do not poll
   * while their socket is up) and, for an alert left active, its evaluator is given the new version (`alert.active`:
   * watched at once, not at its next read) — both in one message.
   */
  type AlertRow = Parameters<typeof activeAlertEvent>[0];
  const changed = async <T>(req: FastifyRequest, work: Promise<T>, row?: (result: T) => AlertRow): Promise<T> => {
    const result = await work;
    const active = row?.(result);
    await app.events
      .transaction(app.db, async (_tx, emit) => {
        await emit('alerts.changed', { userId: currentUser(req).id });
        if (active?.status === 'active') await emit('alert.active', activeAlertEvent(active));
      })
      .catch((err: unknown) => req.log.warn({ err }, 'Could not tell the tabs the alerts changed'));
    return result;
  };
  const itself = (r: AlertRow) => r;

  app.get(
    '',
    { onRequest, schema: { tags, summary: 'Your alerts: active (oldest first), then triggered (newest first)', security, querystring: listAlertsQuerySchema, response: { 200: alertListSchema, ...errors } } },
    async (req) => (await listAlerts(app.db, currentUser(req).id, req.query.status)).map(toAlertDto),
  );

  app.post(
    '',
    { onRequest, schema: { tags, summary: 'Set an alert (initialPrice = the live price now)', security, body: createAlertBodySchema, response: { 201: alertSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(toAlertDto(await changed(req, createAlert(app.db, currentUser(req).id, req.body), itself))),
  );

  app.delete(
    '',
    {
      onRequest,
      schema: { tags, summary: 'Clear the triggered list (status=triggered)', security, querystring: clearAlertsQuerySchema, response: { 200: clearAlertsResultSchema, ...errors } },
    },
    async (req) => ({ deleted: await changed(req, clearTriggeredAlerts(app.db, currentUser(req).id)) }),
  );

  app.patch(
    '/:id',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Move an active alert (triggerPrice + initialPrice = the live price now) and/or edit its note',
        security,
        params: idParamSchema,
        body: updateAlertBodySchema,
        response: { 200: alertSchema, ...errors },
      },
    },
    async (req) => toAlertDto(await changed(req, updateAlert(app.db, currentUser(req).id, req.params.id, req.body), itself)),
  );

  app.delete(
    '/:id',
    { onRequest, schema: { tags, summary: 'Delete an alert', security, params: idParamSchema, response: { 204: z.undefined(), ...errors } } },
    async (req, reply) => {
      await changed(req, deleteAlert(app.db, currentUser(req).id, req.params.id));
      return reply.code(204).send();
    },
  );

  app.post(
    '/:id/rearm',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Make an alert active again from the live price (initialPrice), optionally at a new trigger price',
        security,
        params: idParamSchema,
        body: rearmAlertBodySchema,
        response: { 200: alertSchema, ...errors },
      },
    },
    async (req) => toAlertDto(await changed(req, rearmAlert(app.db, currentUser(req).id, req.params.id, req.body), itself)),
  );
};
