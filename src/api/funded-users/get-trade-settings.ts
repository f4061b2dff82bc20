import { queryOptions, useQuery } from '@tanstack/react-query';
import { tradeSettingsSchema, type TradeSettings } from '../contracts/funded-users';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const tradeSettingsQueryKey = (userId: string) => ['trade-settings', userId] as const;

/** `GET /v1/users/settings/trade/{id}` (admin, or the user): all limits null while none are set. */
export async function getTradeSettings(userId: string): Promise<TradeSettings> {
  const { data } = await http.get<unknown>(`/v1/users/settings/trade/${encodeURIComponent(userId)}`);
  return tradeSettingsSchema.parse(data);
}

export const tradeSettingsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: tradeSettingsQueryKey(userId),
    queryFn: () => getTradeSettings(userId),
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch trade settings' },
  });

export function useTradeSettings(userId: string) {
  return useQuery(tradeSettingsQueryOptions(userId));
}
