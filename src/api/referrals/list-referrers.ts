import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { Network } from '../contracts/common';
import { referrersPageSchema, type ReferralExchange, type ReferrersPage } from '../contracts/referrals';
import { http } from '../client';

export interface ReferrersFilter {
  /** Months `YYYY-MM`, inclusive. */
  startAt?: string;
  endAt?: string;
  exchangeName?: ReferralExchange;
  network: Network;
}

export const referrersQueryKey = (f: ReferrersFilter) => ['referrals', 'referrers', f] as const;

/** `GET /v1/referrals` (admin) with startAt, endAt, exchangeName, cursor (SPEC §7). */
export async function listReferrers(f: ReferrersFilter, cursor?: string): Promise<ReferrersPage> {
  const params: Record<string, string> = { testnet: String(f.network === 'TESTNET') };
  if (f.startAt) params.startAt = f.startAt;
  if (f.endAt) params.endAt = f.endAt;
  if (f.exchangeName) params.exchangeName = f.exchangeName;
  if (cursor) params.cursor = cursor;
  const { data } = await http.get<unknown>('/v1/referrals', { params });
  return referrersPageSchema.parse(data);
}

export const referrersQueryOptions = (f: ReferrersFilter) =>
  infiniteQueryOptions({
    queryKey: referrersQueryKey(f),
    queryFn: ({ pageParam }) => listReferrers(f, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch referrals' },
  });

export function useReferrers(f: ReferrersFilter) {
  return useInfiniteQuery({ ...referrersQueryOptions(f), placeholderData: keepPreviousData });
}
