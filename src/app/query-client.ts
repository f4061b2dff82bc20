import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { ApiMeta } from '../api/query-meta';
import { toastFailure } from '../ui/toast';

/** React Query defaults of SPEC §9. */
export const QUERY_GC_TIME_MS = 5 * 60_000;
export const QUERY_RETRIES = 3;
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 30_000;

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export const retryDelay = (attempt: number): number => Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_MS);

const GENERIC_FALLBACK = 'Something went wrong';

function notifyFailure(error: unknown, meta: ApiMeta | undefined): void {
  if (meta?.silent) return;
  toastFailure(error, meta?.errorMessage ?? GENERIC_FALLBACK);
}

/**
 * Every failed query (after its retries) and mutation toasts the server's message, else the
 * error's, else the fallback its endpoint file declares in `meta.errorMessage` (SPEC §8).
 */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => notifyFailure(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _vars, _context, mutation) => notifyFailure(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        retry: QUERY_RETRIES,
        retryDelay,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: 0 },
    },
  });
}

/** Queries that hold no user data: kept across sign-out so the app does not reload them. */
function isPublicQuery(key: readonly unknown[]): boolean {
  return key[0] === 'config' || key[0] === 'maintenance' || (key[0] === 'feature-flags' && key[1] === 'map');
}

/**
 * Drops every cached query and mutation that belongs to a user (sign-out, or another account
 * signing in). The flag map, config and maintenance message are public and stay.
 */
export function clearUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !isPublicQuery(query.queryKey) });
  queryClient.getMutationCache().clear();
}
