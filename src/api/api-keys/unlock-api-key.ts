import { useMutation } from '@tanstack/react-query';
import type { UnlockApiKeyBody } from '../contracts/api-keys';
import { http } from '../client';

/**
 * `POST /v1/api-keys/{id}/unlock` with the key password in `X-Key-Password`: 204 when it opens the
 * key, 403 'Wrong key password' when it does not (429 past the guessing limits). The trading panels
 * check a password with it before they trade with it; the caller says a refusal at its field. The
 * server then keeps the key unlocked for this sign-in (longer with `remember`), so trading calls skip
 * deriving the password; they still send it, which unlocks again once that has ended.
 */
export async function unlockApiKey(id: string, keyPassword: string, remember = false): Promise<void> {
  const body: UnlockApiKeyBody = { remember };
  await http.post<unknown>(`/v1/api-keys/${encodeURIComponent(id)}/unlock`, body, { headers: { 'X-Key-Password': keyPassword } });
}

/** `DELETE /v1/api-keys/{id}/unlock`: this sign-in's unlock of the key ends, on every server instance. */
export async function lockApiKey(id: string): Promise<void> {
  await http.delete(`/v1/api-keys/${encodeURIComponent(id)}/unlock`);
}

export function useUnlockApiKey() {
  return useMutation({
    mutationFn: ({ id, keyPassword, remember }: { id: string; keyPassword: string; remember?: boolean }) => unlockApiKey(id, keyPassword, remember),
    meta: { silent: true },
  });
}
