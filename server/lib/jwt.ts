import { z } from 'zod';
import { roleSchema } from '../../src/api/contracts/common';
import { hmac, safeEqual } from './tokens';

/** Access tokens live 15 minutes (DESIGN §5); the SPA refreshes on 401 'Invalid access token'. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export const accessClaimsSchema = z.object({
  sub: z.uuid(),
  role: roleSchema,
  /** The user's session version when issued: bumping it ends every session at once. */
  sv: z.number().int(),
  /** Refresh-token family of the sign-in this token belongs to (sign-out revokes it). */
  fam: z.uuid(),
  iat: z.number().int(),
  exp: z.number().int(),
  typ: z.literal('access'),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** HS256 JWT; `nowSeconds` is a parameter so tests can mint expired tokens. */
export function signAccessToken(
  secret: string,
  claims: Pick<AccessClaims, 'sub' | 'role' | 'sv' | 'fam'>,
  nowSeconds = Math.floor(Date.now() / 1000),
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
): string {
  const payload: AccessClaims = { ...claims, iat: nowSeconds, exp: nowSeconds + ttlSeconds, typ: 'access' };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${hmac(secret, body)}`;
}

/** The claims of a valid, unexpired token, or null. Only our exact header is accepted (no `alg: none`). */
export function verifyAccessToken(secret: string, token: string, nowSeconds = Math.floor(Date.now() / 1000)): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  if (!safeEqual(parts[2], hmac(secret, `${parts[0]}.${parts[1]}`))) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const claims = accessClaimsSchema.safeParse(json);
  if (!claims.success || claims.data.exp <= nowSeconds) return null;
  return claims.data;
}
