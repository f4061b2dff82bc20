import { queryOptions, useQuery } from '@tanstack/react-query';
import { userSchema, type User } from '../contracts/users';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';
import { useAccessToken } from '../use-access-token';

export const meQueryKey = ['users', 'me'] as const;

/** `GET /v1/users/me`: the signed-in user. */
export async function getMe(): Promise<User> {
  const { data } = await http.get<unknown>('/v1/users/me');
  return userSchema.parse(data);
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: getMe,
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch user data' },
  });

/** The signed-in user; idle (no request) while signed out. */
export function useMe() {
  const token = useAccessToken();
  return useQuery({ ...meQueryOptions(), enabled: token !== null });
}
