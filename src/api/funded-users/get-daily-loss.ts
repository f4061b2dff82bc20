import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../client';
import { fundedDailyLossSchema, type FundedDailyLoss } from '../contracts/funded-users';
import { retryServerErrors } from '../query-meta';

export const dailyLossQueryKey = (userId: string) => ['daily-loss', userId] as const;

/** `GET /v1/users/{userId}/daily-loss` (admin): each key's loss today (recorded fills) against the daily loss limit. */
export async function getDailyLoss(userId: string): Promise<FundedDailyLoss> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(userId)}/daily-loss`);
  return fundedDailyLossSchema.parse(data);
}

export const dailyLossQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: dailyLossQueryKey(userId),
    queryFn: () => getDailyLoss(userId),
    retry: retryServerErrors,
    refetchInterval: 60_000,
    meta: { errorMessage: 'Unable to fetch today’s losses' },
  });

export function useDailyLoss(userId: string) {
  return useQuery(dailyLossQueryOptions(userId));
}
