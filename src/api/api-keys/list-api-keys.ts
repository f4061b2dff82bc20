import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiKeyListSchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';

export const apiKeysQueryKey = ['api-keys', 'list'] as const;

/** `GET /v1/api-keys`: the signed-in user's keys, newest first (masked, never a secret). */
export async function listApiKeys(): Promise<ApiKey[]> {
  const { data } = await http.get<unknown>('/v1/api-keys');
  return apiKeyListSchema.parse(data);
}

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeysQueryKey, queryFn: listApiKeys, meta: { errorMessage: 'Unable to fetch API keys' } });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
