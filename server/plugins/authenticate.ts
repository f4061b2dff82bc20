import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Role } from '../../src/api/contracts/common';
import type { Db } from '../db/client';
import { refreshTokens, users, type UserRow } from '../db/schema';
import { forbidden, INVALID_ACCESS_TOKEN, unauthorized } from '../lib/http-error';
import { verifyAccessToken } from '../lib/jwt';
import { SessionCache } from './session-cache';

export interface AuthUser {
  id: string;
  email: string;
  role: Role;
  /** Refresh-token family of this session (sign-out and "keep this session" use it). */
  familyId: string;
  row: UserRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.requireUser` / `app.requireRole`; null on public routes. */
    authUser: AuthUser | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless a valid access token of an existing user with a live session is sent. */
    requireUser: onRequestAsyncHookHandler;
    /** onRequest hook: requireUser, then 403 unless the user has one of `roles`. */
    requireRole: (...roles: Role[]) => onRequestAsyncHookHandler;
    /** The checks `requireUser` found live, held briefly (session-cache.ts); compose/http.ts drops them on events. */
    sessionCache: SessionCache;
  }
}

export const AUTH_REQUIRED = 'Authentication required: sign in and send the access token';

/**
 * Reads the user behind the Bearer token. Besides the signature and expiry, the user must still
 * exist with the same session version, and the sign-in's refresh-token family must not be revoked,
 * so sign-out, password resets and account changes take effect at once, not after 15 minutes.
 * With `cache`, a sign-in found live is held briefly; the events that end or change it drop it.
 */
export async function authenticateRequest(db: Db, secret: string, req: FastifyRequest, cache?: SessionCache): Promise<AuthUser> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized(AUTH_REQUIRED);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return authenticateAccessToken(db, secret, match ? match[1] : '', cache);
}

/**
 * The same checks for a bare access token: WebSocket routes receive it in their first message,
 * since browsers cannot set headers on a WebSocket.
 */
export async function authenticateAccessToken(db: Db, secret: string, token: string, cache?: SessionCache): Promise<AuthUser> {
  const claims = token ? verifyAccessToken(secret, token) : null;
  if (!claims) throw unauthorized(INVALID_ACCESS_TOKEN);

  const held = cache?.get(claims.sub, claims.fam, claims.sv);
  if (held) return { id: held.id, email: held.email, role: held.role, familyId: claims.fam, row: held };
  const version = cache?.version ?? 0;
  const [found] = await db
    .select({
      user: users,
      live: sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${claims.fam}::uuid and ${refreshTokens.revokedAt} is null)`,
    })
    .from(users)
    .where(eq(users.id, claims.sub))
    .limit(1);
  if (!found || !found.live || found.user.sessionVersion !== claims.sv) throw unauthorized(INVALID_ACCESS_TOKEN);
  const row = found.user;
  cache?.keep(claims.fam, row, version);
  return { id: row.id, email: row.email, role: row.role, familyId: claims.fam, row };
}

/**
 * Decorates the app with `requireUser` and `requireRole(...)`, used as route `onRequest` hooks, and
 * `sessionCache`: their database checks held briefly (the caller drops them on the events that end or
 * change a sign-in).
 */
export function registerAuthentication(app: FastifyInstance, db: Db, secret: string, cache = new SessionCache()): void {
  app.decorateRequest('authUser', null);
  app.decorate('sessionCache', cache);
  const requireUser: onRequestAsyncHookHandler = async (req) => {
    req.authUser = await authenticateRequest(db, secret, req, cache);
  };
  app.decorate('requireUser', requireUser);
  app.decorate('requireRole', (...roles: Role[]): onRequestAsyncHookHandler => async (req) => {
    const user = await authenticateRequest(db, secret, req, cache);
    req.authUser = user;
    if (!roles.includes(user.role)) {
      throw forbidden(roles.length === 1 ? `This needs the ${roles[0]} role` : `This needs one of the roles: ${roles.join(', ')}`);
    }
  });
}

/** The signed-in user of a route guarded by requireUser/requireRole. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.authUser) throw unauthorized(AUTH_REQUIRED);
  return req.authUser;
}
