import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Currency, Network } from '../contracts/common';
import { currencyOffered, referralMonthlyRecordListSchema, type ReferralExchange, type ReferralMonthlyRecord } from '../contracts/referrals';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

/** One referrer's months (`type: 'user'` + `userId`) or the exchange's months over every referrer. */
export type ReferralVolumeParams =
  | { type: 'user'; userId: string; exchange: ReferralExchange; network: Network; currency: Currency }
  | { type: 'exchange'; exchange: ReferralExchange; network: Network; currency: Currency };

export const referralVolumeQueryKey = (p: ReferralVolumeParams) => ['referrals', 'volume', p] as const;

/**
 * `GET /v1/referrals/volume` (admin) with exchange, type, userId, testnet (true when the network is
 * TESTNET) and currency (SPEC §7). Currency is USD for every exchange but BITMEX.
 */
export async function getReferralVolume(p: ReferralVolumeParams): Promise<ReferralMonthlyRecord[]> {
  const params: Record<string, string> = {
    exchange: p.exchange,
    type: p.type,
    ...(p.type === 'user' ? { userId: p.userId } : {}),
    testnet: String(p.network === 'TESTNET'),
    currency: currencyOffered(p.exchange, p.currency),
  };
  const { data } = await http.get<unknown>('/v1/referrals/volume', { params });
  return referralMonthlyRecordListSchema.parse(data);
}

export const referralVolumeQueryOptions = (p: ReferralVolumeParams) =>
  queryOptions({
    queryKey: referralVolumeQueryKey(p),
    queryFn: () => getReferralVolume(p),
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch referrals' },
  });

export function useReferralVolume(p: ReferralVolumeParams) {
  return useQuery({ ...referralVolumeQueryOptions(p), placeholderData: keepPreviousData });
}
