import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hmac, randomToken, safeEqual } from '../lib/tokens';
import { forbidden } from '../lib/http-error';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
export const XSRF_MESSAGE =
  'Missing or invalid XSRF token: send the value of the XSRF-TOKEN cookie in the X-XSRF-TOKEN header (load any page of the app first to get the cookie)';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Signed double-submit token: `<random>.<hmac>`. The signature means a cookie planted by someone
 * else (e.g. from a sibling subdomain) is not accepted, only ones this server issued.
 */
export function issueXsrfToken(secret: string): string {
  const nonce = randomToken(18);
  return `${nonce}.${hmac(secret, `xsrf:${nonce}`)}`;
}

export function isValidXsrfToken(secret: string, token: string | undefined): token is string {
  if (!token) return false;
  const [nonce, sig, extra] = token.split('.');
  return Boolean(nonce && sig && extra === undefined) && safeEqual(sig, hmac(secret, `xsrf:${nonce}`));
}

function setXsrfCookie(req: FastifyRequest, reply: FastifyReply, secret: string) {
  reply.setCookie(XSRF_COOKIE, issueXsrfToken(secret), {
    path: '/',
    sameSite: 'strict',
    // Readable by the SPA's script on purpose: it copies it into the header (axios does this itself).
    httpOnly: false,
    secure: req.protocol === 'https',
  });
}

/** Route patterns outside the XSRF check: the simulator imitates the exchanges, whose clients send no such header. */
export const XSRF_EXEMPT_ROUTE_PREFIX = '/sim/';

/**
 * XSRF protection (DESIGN §5): every mutating request must carry the cookie and an equal header,
 * whatever its path, except the simulator's own routes. The decision uses the route the router
 * matched (`routeOptions.url`, a registered pattern such as `/v1/maintenance`), never the raw URL:
 * the router decodes and normalises `/v%31/maintenance` to the same route, so a prefix test on the
 * raw URL let it through. Sign-in and sign-up are checked too, since the SPA always has the cookie
 * (set on the first GET, e.g. the page itself or /v1/config); an unknown path is checked as well.
 */
export function registerXsrf(app: FastifyInstance, secret: string): void {
  app.addHook('onRequest', async (req, reply) => {
    // The simulator's exchange API neither checks nor issues the cookie: its callers are exchange clients
    // (the connectors' every order, ccxt), for whom a signed cookie per request is work and bytes for nothing.
    if (req.routeOptions.url?.startsWith(XSRF_EXEMPT_ROUTE_PREFIX)) return;
    const cookie = req.cookies[XSRF_COOKIE];
    const cookieOk = isValidXsrfToken(secret, cookie);
    if (!cookieOk) setXsrfCookie(req, reply, secret);
    if (!MUTATING.has(req.method)) return;
    const header = req.headers[XSRF_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    if (!cookieOk || !value || !safeEqual(value, cookie)) throw forbidden(XSRF_MESSAGE);
  });
}
