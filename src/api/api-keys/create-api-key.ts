import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeySchema, createApiKeyBodySchema, type ApiKey, type CreateApiKeyBody } from '../contracts/api-keys';
import { http } from '../client';

/**
 * `POST /v1/api-keys`: the server checks the key with the exchange (not stored if refused) and
 * stores it encrypted under `keyPassword`. The answer carries no secret.
 */
export async function createApiKey(body: CreateApiKeyBody): Promise<ApiKey> {
  const { data } = await http.post<unknown>('/v1/api-keys', createApiKeyBodySchema.parse(body));
  return apiKeySchema.parse(data);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
    meta: { errorMessage: 'Unable to add API key' },
  });
}
