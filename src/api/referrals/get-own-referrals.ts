import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Currency, Network } from '../contracts/common';
import { currencyOffered, ownReferralsSchema, type OwnReferrals, type ReferralExchange } from '../contracts/referrals';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export interface OwnReferralsParams {
  exchange: ReferralExchange;
  network: Network;
  currency: Currency;
}

export const ownReferralsQueryKey = (p: OwnReferralsParams) => ['referrals', 'own', p] as const;

/** `GET /v1/referrals/user` with exchange and type 'user' (SPEC §7): the signed-in referrer's own data. */
export async function getOwnReferrals(p: OwnReferralsParams): Promise<OwnReferrals> {
  const { data } = await http.get<unknown>('/v1/referrals/user', {
    params: { exchange: p.exchange, type: 'user', testnet: String(p.network === 'TESTNET'), currency: currencyOffered(p.exchange, p.currency) },
  });
  return ownReferralsSchema.parse(data);
}

export function useOwnReferrals(p: OwnReferralsParams) {
  return useQuery({
    ...queryOptions({
      queryKey: ownReferralsQueryKey(p),
      queryFn: () => getOwnReferrals(p),
      retry: retryServerErrors,
      meta: { errorMessage: 'Unable to fetch referrals' },
    }),
    placeholderData: keepPreviousData,
  });
}
