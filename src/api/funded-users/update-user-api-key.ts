import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeySchema, patchApiKeyBodySchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { userApiKeyQueryKey } from './get-user-api-key';

/** `PATCH /v1/users/{userId}/api-keys/{apiKeyId}` (admin): renames the key. */
export async function renameUserApiKey(userId: string, apiKeyId: string, name: string): Promise<ApiKey> {
  const { data } = await http.patch<unknown>(
    `/v1/users/${encodeURIComponent(userId)}/api-keys/${encodeURIComponent(apiKeyId)}`,
    patchApiKeyBodySchema.parse({ name }),
  );
  return apiKeySchema.parse(data);
}

export function useRenameUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, apiKeyId, name }: { userId: string; apiKeyId: string; name: string }) => renameUserApiKey(userId, apiKeyId, name),
    onSuccess: (key) => {
      queryClient.setQueryData(userApiKeyQueryKey(key.userId, key.id), key);
      return queryClient.invalidateQueries({ queryKey: ['user-api-keys', key.userId, 'list'] });
    },
    meta: { errorMessage: 'Unable to update API key' },
  });
}
