import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../client';
import { adminTradeAuditPageSchema, type AdminTradeAuditPage } from '../contracts/funded-users';
import { retryServerErrors } from '../query-meta';

export const tradeAuditQueryKey = (userId: string) => ['trade-audit', userId] as const;

/** `GET /v1/users/{userId}/trade-audit` (admin): what admins did on the user's keys, newest first, one page. */
export async function listTradeAudit(userId: string, cursor?: string): Promise<AdminTradeAuditPage> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(userId)}/trade-audit`, { params: cursor ? { cursor } : {} });
  return adminTradeAuditPageSchema.parse(data);
}

export const tradeAuditQueryOptions = (userId: string) =>
  infiniteQueryOptions({
    queryKey: tradeAuditQueryKey(userId),
    queryFn: ({ pageParam }) => listTradeAudit(userId, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch the trading audit' },
  });

export function useTradeAudit(userId: string) {
  return useInfiniteQuery(tradeAuditQueryOptions(userId));
}
