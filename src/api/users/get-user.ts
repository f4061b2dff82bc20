import { queryOptions, useQuery } from '@tanstack/react-query';
import { userSchema, type User } from '../contracts/users';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const userQueryKey = (id: string) => ['users', 'detail', id] as const;

/** `GET /v1/users/{id}`. */
export async function getUser(id: string): Promise<User> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(id)}`);
  return userSchema.parse(data);
}

export const userQueryOptions = (id: string) =>
  queryOptions({
    queryKey: userQueryKey(id),
    queryFn: () => getUser(id),
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch user' },
  });

export function useUser(id: string) {
  return useQuery(userQueryOptions(id));
}
