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
