import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { transactionsPageSchema, type TransactionsPage } from '../contracts/funded-users';
import { http } from '../client';

export const ownTransactionsQueryKey = (apiKeyId: string) => ['api-keys', 'transactions', apiKeyId] as const;

/** `GET /v1/api-keys/{id}/transactions`: one page of the transactions on one of your keys, newest first. */
export async function listOwnTransactions(apiKeyId: string, cursor?: string): Promise<TransactionsPage> {
  const { data } = await http.get<unknown>(`/v1/api-keys/${encodeURIComponent(apiKeyId)}/transactions`, { params: cursor ? { cursor } : {} });
  return transactionsPageSchema.parse(data);
}

export const ownTransactionsQueryOptions = (apiKeyId: string) =>
  infiniteQueryOptions({
    queryKey: ownTransactionsQueryKey(apiKeyId),
    queryFn: ({ pageParam }) => listOwnTransactions(apiKeyId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch transactions' },
  });

export function useOwnTransactions(apiKeyId: string) {
  return useInfiniteQuery(ownTransactionsQueryOptions(apiKeyId));
}
