import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiKeySchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const userApiKeyQueryKey = (userId: string, apiKeyId: string) => ['user-api-keys', userId, 'detail', apiKeyId] as const;

/** `GET /v1/users/{userId}/api-keys/{apiKeyId}` (admin). */
export async function getUserApiKey(userId: string, apiKeyId: string): Promise<ApiKey> {
  const { data } = await http.get<unknown>(`/v1/users/${encodeURIComponent(userId)}/api-keys/${encodeURIComponent(apiKeyId)}`);
  return apiKeySchema.parse(data);
}

export const userApiKeyQueryOptions = (userId: string, apiKeyId: string) =>
  queryOptions({
    queryKey: userApiKeyQueryKey(userId, apiKeyId),
    queryFn: () => getUserApiKey(userId, apiKeyId),
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to fetch API key' },
  });

export function useUserApiKey(userId: string, apiKeyId: string) {
  return useQuery(userApiKeyQueryOptions(userId, apiKeyId));
}
