/**
 * The error services throw; the app's error handler turns it into `{ message, fields? }` with
 * `status` (DESIGN §5). Anything else that escapes a handler becomes a 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, message, fields);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, fields?: Record<string, string>) => new HttpError(409, message, fields);

/** The exact answer the SPA refreshes and retries on (SPEC §8): nothing else may use this text. */
export const INVALID_ACCESS_TOKEN = 'Invalid access token';
