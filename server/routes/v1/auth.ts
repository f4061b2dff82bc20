import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  signinBodySchema,
  signoutBodySchema,
  signupBodySchema,
  tokensSchema,
} from '../../../src/api/contracts/auth';
import { errorResponseSchema, messageResponseSchema } from '../../../src/api/contracts/common';
import { unauthorized } from '../../lib/http-error';
import { authenticateRequest, AUTH_REQUIRED } from '../../plugins/authenticate';
import {
  changePasswordWithToken,
  familyOfRefreshToken,
  forgotPassword,
  MESSAGES,
  refresh,
  revokeFamily,
  signin,
  signup,
} from '../../services/auth';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 429: errorResponseSchema };

/** `/v1/auth/*` (SPEC §7, DESIGN §5). Credential-guessing routes are rate-limited per client IP and route. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const rateLimit = { max: app.config.AUTH_RATE_LIMIT_MAX, timeWindow: app.config.AUTH_RATE_LIMIT_WINDOW_MS };
  // Refresh and sign-out guess nothing (a 256-bit token) but write to the database: a looser cap per client IP.
  const sessionRateLimit = { max: app.config.SESSION_RATE_LIMIT_MAX, timeWindow: app.config.AUTH_RATE_LIMIT_WINDOW_MS };
  const ctx = app.authContext;

  app.post(
    '/signup',
    {
      config: { rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Create an account (needs an invitation code while FF_ENABLE_REGISTRATION is off)',
        body: signupBodySchema,
        response: { 201: tokensSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await signup(ctx, req.body)),
  );

  app.post(
    '/signin',
    { config: { rateLimit }, schema: { tags: ['auth'], summary: 'Sign in', body: signinBodySchema, response: { 200: tokensSchema, ...errors } } },
    async (req) => signin(ctx, req.body),
  );

  app.post(
    '/refresh',
    {
      config: { rateLimit: sessionRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'New token pair for `Authorization: Bearer <refreshToken>`; the presented token is rotated',
        security: [{ bearerAuth: [] }],
        response: { 200: tokensSchema, ...errors },
      },
    },
    async (req) => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      if (!match) throw unauthorized('Send the refresh token as `Authorization: Bearer <refreshToken>`');
      return refresh(ctx, match[1]);
    },
  );

  app.post(
    '/signout',
    {
      config: { rateLimit: sessionRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'End this sign-in: by the Bearer access token, or by `{ refreshToken }`',
        security: [{ bearerAuth: [] }],
        // Fastify hands a bodiless POST over as null.
        body: signoutBodySchema.nullish(),
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (req) => {
      const presented = req.body?.refreshToken;
      if (presented) {
        // Possession of the refresh token is enough to end its own sign-in; an unknown one is already gone.
        const family = await familyOfRefreshToken(ctx.db, presented);
        if (family) await revokeFamily(ctx, family.familyId);
        return { message: MESSAGES.signedOut };
      }
      if (!req.headers.authorization) throw unauthorized(AUTH_REQUIRED);
      const user = await authenticateRequest(ctx.db, ctx.secret, req);
      await revokeFamily(ctx, user.familyId);
      return { message: MESSAGES.signedOut };
    },
  );

  app.post(
    '/forgot-password',
    {
      config: { rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'E-mail a 30-minute password reset link (same answer whether or not the account exists)',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (req) => {
      const { message, work } = await forgotPassword(ctx, req.body.email);
      setImmediate(() => {
        work().catch((err: unknown) => req.log.error({ err }, 'could not send the password reset e-mail'));
      });
      return { message };
    },
  );

  app.post(
    '/change-password',
    {
      config: { rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the token from the reset link; ends every session',
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (req) => {
      await changePasswordWithToken(ctx, req.body);
      return { message: MESSAGES.passwordChanged };
    },
  );
};
