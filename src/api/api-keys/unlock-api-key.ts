import { useMutation } from '@tanstack/react-query';
import { http } from '../client';

/**
 * `POST /v1/api-keys/{id}/unlock` with the key password in `X-Key-Password`: 204 when it opens the
 * key, 403 'Wrong key password' when it does not (429 past the guessing limits). The trading panels
 * check a password with it before they trade with it; the caller says a refusal at its field.
 */
export async function unlockApiKey(id: string, keyPassword: string): Promise<void> {
  await http.post<unknown>(`/v1/api-keys/${encodeURIComponent(id)}/unlock`, {}, { headers: { 'X-Key-Password': keyPassword } });
}

export function useUnlockApiKey() {
  return useMutation({ mutationFn: ({ id, keyPassword }: { id: string; keyPassword: string }) => unlockApiKey(id, keyPassword), meta: { silent: true } });
}
