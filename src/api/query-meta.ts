import type { QueryClient } from '@tanstack/react-query';
import { httpStatus } from './errors';

/**
 * What a query or mutation tells the app's global error handler (`src/app/query-client.ts`):
 * `errorMessage` is the SPEC §8 fallback shown when the failure carries no message of its own;
 * `silent` failures are not toasted (background polls, calls whose caller shows its own message).
 */
export type ApiMeta = { errorMessage?: string; silent?: boolean };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ApiMeta;
    mutationMeta: ApiMeta;
  }
}

/**
 * Retry policy for reads whose 4xx answers will not change on retry (missing, forbidden): up to the
 * app's 3 retries for network and server errors only, so a guard does not wait ~7 s to show a 403.
 */
export function retryServerErrors(failureCount: number, error: unknown): boolean {
  const status = httpStatus(error);
  if (status !== null && status >= 400 && status < 500) return false;
  return failureCount < 3;
}

export type { QueryClient };
