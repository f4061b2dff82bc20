/** PostgreSQL error code of the driver error behind a drizzle error (drizzle wraps it in `cause`). */
export function pgErrorCode(err: unknown): { code?: string; constraint?: string } {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const rec = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof rec.code === 'string' && /^[0-9A-Z]{5}$/.test(rec.code)) {
      return { code: rec.code, constraint: typeof rec.constraint === 'string' ? rec.constraint : undefined };
    }
    e = rec.cause;
  }
  return {};
}

/** True for a unique-constraint violation, optionally on one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const { code, constraint: c } = pgErrorCode(err);
  return code === '23505' && (constraint === undefined || c === undefined || c === constraint);
}

/**
 * Why a database call failed when the database, not the request, is at fault:
 * - `unavailable`: it cannot be reached or gave no answer (refused, reset, connect timeout, no pooled
 *   connection within the acquire timeout, query read timeout, shutting down, closed PGlite). The
 *   outage tracker (`outage.ts`) logs these once per outage.
 * - `timeout`: it answered, but this statement ran out of time (statement or lock timeout) or this
 *   route's share of the pool stayed busy (`pool-guard.ts`): contention, not an outage.
 * Both answer 503 with Retry-After (plugins/errors.ts): the request may succeed if sent again later.
 */
export type DatabaseFailureKind = 'unavailable' | 'timeout';

export interface DatabaseFailure {
  kind: DatabaseFailureKind;
  /** Short and public-safe (no host, no SQL): shown by `/v1/health` and in log messages. */
  reason: string;
  /** SQLSTATE or Node errno of the driver error, when it has one. */
  code?: string;
  /** The driver error's own message (never drizzle's wrapper, which holds the SQL and its parameters). */
  message: string;
}

/** The code of `PoolShareTimeoutError` (pool-guard.ts): one route already holds its share of the pool. */
export const POOL_SHARE_TIMEOUT_CODE = 'CT_POOL_SHARE_TIMEOUT';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection lost',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
};

/** SQLSTATEs (PostgreSQL appendix A) that mean "try again later" rather than "this request is wrong". */
function bySqlState(code: string): Omit<DatabaseFailure, 'message' | 'code'> | null {
  if (code === '57014') return { kind: 'timeout', reason: 'statement timeout' }; // query_canceled
  if (code === '55P03') return { kind: 'timeout', reason: 'lock timeout' }; // lock_not_available
  if (code === '25P03') return { kind: 'timeout', reason: 'idle in transaction timeout' };
  if (code === '57P01' || code === '57P02') return { kind: 'unavailable', reason: 'database shutting down' }; // admin/crash shutdown
  if (code === '57P03') return { kind: 'unavailable', reason: 'database not accepting connections' }; // cannot_connect_now
  if (code === '53300') return { kind: 'unavailable', reason: 'too many connections' };
  if (code.startsWith('08')) return { kind: 'unavailable', reason: 'connection failure' }; // connection_exception class
  return null;
}

/**
 * node-postgres, pg-pool and PGlite raise these without a code; matched on their fixed messages
 * (pg 8 `client.js`, pg-pool 3 `index.js`, PGlite 0.x).
 */
const BY_MESSAGE: [RegExp, Omit<DatabaseFailure, 'message' | 'code'>][] = [
  [/timeout exceeded when trying to connect/i, { kind: 'unavailable', reason: 'no connection within the connect timeout' }],
  [/Connection terminated due to connection timeout|timeout expired/i, { kind: 'unavailable', reason: 'connect timeout' }],
  [/Query read timeout/i, { kind: 'unavailable', reason: 'no answer' }],
  [/Connection terminated|not queryable|Client was closed|Cannot use a pool after calling end/i, { kind: 'unavailable', reason: 'connection lost' }],
  [/PGlite is closed/i, { kind: 'unavailable', reason: 'database closed' }],
];

/** Only the first line, with anything after a drizzle "Failed query"/"params:" marker cut off. */
const driverMessage = (m: string) => m.split(/\n|Failed query:|params:/)[0].trim().slice(0, 200);

/**
 * Classifies an error thrown by a database call (drizzle wraps the driver error in `cause`; pg-pool
 * wraps a connect error; Node may throw an AggregateError for each address tried). Null when the
 * error is not about the database being unreachable or out of time (a constraint, a bug: a 4xx or 500).
 */
export function classifyDatabaseError(err: unknown): DatabaseFailure | null {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): DatabaseFailure | null => {
    if (!e || typeof e !== 'object' || depth > 6 || seen.has(e)) return null;
    seen.add(e);
    const rec = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof rec.code === 'string' ? rec.code : undefined;
    const message = typeof rec.message === 'string' ? driverMessage(rec.message) : '';
    if (code && /^[0-9A-Z]{5}$/.test(code)) {
      const hit = bySqlState(code);
      // Any other SQLSTATE is the answer of a reachable database about this request: not ours.
      return hit ? { ...hit, code, message } : null;
    }
    if (code === POOL_SHARE_TIMEOUT_CODE) return { kind: 'timeout', reason: 'too many requests waiting for the database', code, message };
    if (code && NETWORK_CODES[code]) return { kind: 'unavailable', reason: NETWORK_CODES[code], code, message };
    // Wrappers first give the inner error a chance: it carries the precise code.
    const inner = visit(rec.cause, depth + 1) ?? (Array.isArray(rec.errors) ? rec.errors.map((x) => visit(x, depth + 1)).find(Boolean) : null);
    if (inner) return inner;
    // The cleaned message only: drizzle's wrapper message holds parameters, which are user text.
    const found = message ? BY_MESSAGE.find(([re]) => re.test(message)) : undefined;
    return found ? { ...found[1], ...(code ? { code } : {}), message } : null;
  };
  return visit(err, 0);
}
