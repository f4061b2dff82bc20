import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiKeySchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';

export const apiKeyQueryKey = (id: string) => ['api-keys', 'detail', id] as const;

/** `GET /v1/api-keys/{id}`: one of the signed-in user's keys (404 for anyone else's). */
export async function getApiKey(id: string): Promise<ApiKey> {
  const { data } = await http.get<unknown>(`/v1/api-keys/${encodeURIComponent(id)}`);
  return apiKeySchema.parse(data);
}

export const apiKeyQueryOptions = (id: string) =>
  queryOptions({ queryKey: apiKeyQueryKey(id), queryFn: () => getApiKey(id), retry: retryServerErrors, meta: { errorMessage: 'Unable to fetch API key' } });

export function useApiKey(id: string) {
  return useQuery(apiKeyQueryOptions(id));
}
