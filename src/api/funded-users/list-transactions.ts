import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { transactionsPageSchema, type TransactionsPage } from '../contracts/funded-users';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const transactionsQueryKey = (userId: string, apiKeyId: string) => ['user-api-keys', userId, 'transactions', apiKeyId] as const;

/** `GET /v1/users/{userId}/api-keys/{apiKeyId}/transactions` (admin): one page, newest first. */
export async function listTransactions(userId: string, apiKeyId: string, cursor?: string): Promise<TransactionsPage> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(userId)}/api-keys/${encodeURIComponent(apiKeyId)}/transactions`, {
    params: cursor ? { cursor } : {},
  });
  return transactionsPageSchema.parse(data);
}

export const transactionsQueryOptions = (userId: string, apiKeyId: string) =>
  infiniteQueryOptions({
    queryKey: transactionsQueryKey(userId, apiKeyId),
    queryFn: ({ pageParam }) => listTransactions(userId, apiKeyId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch transactions' },
  });

export function useTransactions(userId: string, apiKeyId: string) {
  return useInfiniteQuery(transactionsQueryOptions(userId, apiKeyId));
}
