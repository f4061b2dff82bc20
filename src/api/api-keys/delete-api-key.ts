import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../client';
import { apiKeyQueryKey } from './get-api-key';

/** `DELETE /v1/api-keys/{id}`: removes one of your keys and the transactions recorded on it. */
export async function deleteApiKey(id: string): Promise<void> {
  await http.delete(`/v1/api-keys/${encodeURIComponent(id)}`);
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: (_void, id) => {
      queryClient.removeQueries({ queryKey: apiKeyQueryKey(id) });
      return queryClient.invalidateQueries({ queryKey: ['api-keys', 'list'] });
    },
    meta: { errorMessage: 'Unable to delete API key' },
  });
}
