import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { usersPageSchema, type UsersPage, type UsersQuery } from '../contracts/users';
import { http } from '../client';

export type UsersFilter = Omit<Partial<UsersQuery>, 'cursor'>;

export const usersListQueryKey = (filter: UsersFilter = {}) => ['users', 'list', filter] as const;

/** `GET /v1/users` (admin): one page; pass the previous page's `meta.nextCursor` for the next. */
export async function listUsers(filter: UsersFilter, cursor?: string): Promise<UsersPage> {
  const params: Record<string, string | number> = {};
  if (filter.query) params.query = filter.query;
  if (filter.role) params.role = filter.role;
  if (filter.limit) params.limit = filter.limit;
  if (cursor) params.cursor = cursor;
  const { data } = await http.get<unknown>('/v1/users', { params });
  return usersPageSchema.parse(data);
}

export const usersListQueryOptions = (filter: UsersFilter = {}) =>
  infiniteQueryOptions({
    queryKey: usersListQueryKey(filter),
    queryFn: ({ pageParam }) => listUsers(filter, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch users' },
  });

export function useUsersList(filter: UsersFilter = {}) {
  return useInfiniteQuery(usersListQueryOptions(filter));
}
