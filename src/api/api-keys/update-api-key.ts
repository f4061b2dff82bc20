import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeySchema, patchApiKeyBodySchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { apiKeyQueryKey } from './get-api-key';

/** `PATCH /v1/api-keys/{id}`: renames one of your keys (the only thing that changes). */
export async function renameApiKey(id: string, name: string): Promise<ApiKey> {
  const { data } = await http.patch<unknown>(`/v1/api-keys/${encodeURIComponent(id)}`, patchApiKeyBodySchema.parse({ name }));
  return apiKeySchema.parse(data);
}

export function useRenameApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameApiKey(id, name),
    onSuccess: (key) => {
      queryClient.setQueryData(apiKeyQueryKey(key.id), key);
      return queryClient.invalidateQueries({ queryKey: ['api-keys', 'list'] });
    },
    meta: { errorMessage: 'Unable to update API key' },
  });
}
