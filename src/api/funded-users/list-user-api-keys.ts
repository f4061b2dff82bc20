import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiKeyListSchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const userApiKeysQueryKey = (userId: string) => ['user-api-keys', userId, 'list'] as const;

/** `GET /v1/users/{userId}/api-keys` (admin): a user's keys, newest first. */
export async function listUserApiKeys(userId: string): Promise<ApiKey[]> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(userId)}/api-keys`);
  return apiKeyListSchema.parse(data);
}

export const userApiKeysQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: userApiKeysQueryKey(userId),
    queryFn: () => listUserApiKeys(userId),
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch API keys' },
  });

export function useUserApiKeys(userId: string) {
  return useQuery(userApiKeysQueryOptions(userId));
}
