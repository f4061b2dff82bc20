import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiKeySchema, type ApiKey } from '../contracts/api-keys';
import { http } from '../client';
import { apiKeyQueryKey } from './get-api-key';

/**
 * `POST /v1/api-keys/{id}/verify` with the key password in `X-Key-Password`: the server opens the
 * key and asks the exchange again. 403 'Wrong key password' when the password does not open it.
 */
export async function verifyApiKey(id: string, keyPassword: string): Promise<ApiKey> {
  const { data } = await http.post<unknown>(`/v1/api-keys/${encodeURIComponent(id)}/verify`, {}, { headers: { 'X-Key-Password': keyPassword } });
  return apiKeySchema.parse(data);
}

export function useVerifyApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, keyPassword }: { id: string; keyPassword: string }) => verifyApiKey(id, keyPassword),
    onSuccess: (key) => {
      queryClient.setQueryData(apiKeyQueryKey(key.id), key);
      return queryClient.invalidateQueries({ queryKey: ['api-keys', 'list'] });
    },
    meta: { errorMessage: 'Unable to check API key' },
  });
}
