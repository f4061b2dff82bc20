import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../client';

/** `DELETE /v1/users/{userId}/api-keys/{apiKeyId}` (admin): the key and its transactions. */
export async function deleteUserApiKey(userId: string, apiKeyId: string): Promise<void> {
  await http.delete(`/v1/users/${encodeURIComponent(userId)}/api-keys/${encodeURIComponent(apiKeyId)}`);
}

export function useDeleteUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, apiKeyId }: { userId: string; apiKeyId: string }) => deleteUserApiKey(userId, apiKeyId),
    onSuccess: (_void, { userId }) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['user-api-keys', userId] }), queryClient.invalidateQueries({ queryKey: ['funded-users'] })]),
    meta: { errorMessage: 'Unable to delete API key' },
  });
}
