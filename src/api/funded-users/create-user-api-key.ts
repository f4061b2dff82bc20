import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeySchema, createApiKeyBodySchema, type ApiKey, type CreateApiKeyBody } from '../contracts/api-keys';
import { http } from '../client';

/** `POST /v1/users/{userId}/api-keys` (admin): checked with the exchange, stored encrypted under the key password. */
export async function createUserApiKey(userId: string, body: CreateApiKeyBody): Promise<ApiKey> {
  const { data } = await http.post<unknown>(`/v1/users/${encodeURIComponent(userId)}/api-keys`, createApiKeyBodySchema.parse(body));
  return apiKeySchema.parse(data);
}

/** Refreshes the user's key list and the funded list (it shows key counts). */
export function useCreateUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: string; body: CreateApiKeyBody }) => createUserApiKey(userId, body),
    onSuccess: (_key, { userId }) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['user-api-keys', userId] }), queryClient.invalidateQueries({ queryKey: ['funded-users'] })]),
    meta: { errorMessage: 'Unable to add API key' },
  });
}
