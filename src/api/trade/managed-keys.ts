import type { QueryClient } from '@tanstack/react-query';

/** The query of a key's guarded brackets, and of the user's activity log (what server-side jobs did). */
export const managedQueryKey = (apiKeyId: string) => ['trade', apiKeyId, 'managed'] as const;
export const activityQueryKey = ['activity'] as const;

/** Reads every key's guarded brackets and the activity log again (the server said they changed: `managed-changed`). */
export function refreshManaged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => (q.queryKey[0] === 'trade' && q.queryKey[2] === 'managed') || q.queryKey[0] === activityQueryKey[0] });
}
