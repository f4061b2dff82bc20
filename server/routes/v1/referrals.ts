import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, messageResponseSchema } from '../../../src/api/contracts/common';
import {
  exchangeVolumeBodySchema,
  incomeSubmissionQuerySchema,
  incomeSubmissionSchema,
  ownReferralsQuerySchema,
  ownReferralsSchema,
  referralMonthlyRecordListSchema,
  referralVolumeQuerySchema,
  referrersPageSchema,
  referrersQuerySchema,
} from '../../../src/api/contracts/referrals';
import { currentUser } from '../../plugins/authenticate';
import { getOwnReferrals, getReferralVolume, listReferrers, setExchangeMonths, submitReferrerIncome } from '../../services/referrals';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['referrals'];

/** `/v1/referrals` (SPEC §7): the referral programme's volume and income. */
export const referralRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags,
        summary: 'Referrers with referred users, volume (USD) and income over months startAt–endAt (admin)',
        security,
        querystring: referrersQuerySchema,
        response: { 200: referrersPageSchema, ...errors },
      },
    },
    async (req) => listReferrers(app.db, req.query),
  );

  app.get(
    '/volume',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags,
        summary: 'Monthly referral records of one referrer (type=user, userId) or of every referrer (type=exchange) (admin)',
        security,
        querystring: referralVolumeQuerySchema,
        response: { 200: referralMonthlyRecordListSchema, ...errors },
      },
    },
    async (req) => getReferralVolume(app.db, req.query),
  );

  app.patch(
    '/volume',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags,
        summary: "Set the exchange's monthly totals (volume, income) for an exchange, network and currency (admin)",
        security,
        body: exchangeVolumeBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (req) => setExchangeMonths(app.db, req.body, currentUser(req).id),
  );

  app.get(
    '/user',
    {
      onRequest: app.requireRole('admin', 'referrer'),
      schema: {
        tags,
        summary: 'Your own referral code, referred users and monthly referred volume and income (admin, referrer)',
        security,
        querystring: ownReferralsQuerySchema,
        response: { 200: ownReferralsSchema, ...errors },
      },
    },
    async (req) => getOwnReferrals(app.db, currentUser(req).row, req.query),
  );

  app.patch(
    '/user',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags,
        summary: "Submit a referrer's monthly income (admin); `?testnet=true` for the TESTNET network",
        security,
        querystring: incomeSubmissionQuerySchema,
        body: incomeSubmissionSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (req) => submitReferrerIncome(app.db, req.body, req.query.testnet, currentUser(req).id),
  );
};
