import { HttpError } from './http-error';

/**
 * A 409 (the same request is still running), 429 or 503 that tells the client when to come back: app.ts copies `retryAfterSeconds` into the
 * `Retry-After` header (an `onError` hook, so every route that throws one gets it, like the route
 * rate limits of @fastify/rate-limit).
 */
export class RetryLaterError extends HttpError {
  constructor(
    status: 409 | 429 | 503,
    message: string,
    readonly retryAfterSeconds: number,
    fields?: Record<string, string>,
  ) {
    super(status, message, fields);
    this.name = 'RetryLaterError';
  }
}

/** `14 minutes`, `1 minute`, `40 seconds`: what a person reads in a 429 message. */
export function humanDuration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
