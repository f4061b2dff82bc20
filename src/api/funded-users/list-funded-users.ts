import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { fundedUsersPageSchema, type FundedUsersPage } from '../contracts/funded-users';
import { http } from '../client';

export interface FundedUsersFilter {
  query?: string;
}

export const fundedUsersQueryKey = (f: FundedUsersFilter = {}) => ['funded-users', 'list', f] as const;

/** `GET /v1/users/funded` (admin): one page, newest first; `query` searches emails. */
export async function listFundedUsers(f: FundedUsersFilter, cursor?: string): Promise<FundedUsersPage> {
  const params: Record<string, string> = {};
  if (f.query) params.query = f.query;
  if (cursor) params.cursor = cursor;
  const { data } = await http.get<unknown>('/v1/users/funded', { params });
  return fundedUsersPageSchema.parse(data);
}

export const fundedUsersQueryOptions = (f: FundedUsersFilter = {}) =>
  infiniteQueryOptions({
    queryKey: fundedUsersQueryKey(f),
    queryFn: ({ pageParam }) => listFundedUsers(f, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch funded users' },
  });

export function useFundedUsers(f: FundedUsersFilter = {}) {
  return useInfiniteQuery({ ...fundedUsersQueryOptions(f), placeholderData: keepPreviousData });
}
