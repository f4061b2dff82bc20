import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patchUserBodySchema, userSchema, type PatchUserBody, type User } from '../contracts/users';
import { http } from '../client';
import type { ApiMeta } from '../query-meta';

/** `PATCH /v1/users/{id}`: admins change any field; users change only their own password. */
export async function updateUser(id: string, body: PatchUserBody): Promise<User> {
  const { data } = await http.patch<unknown>(`/v1/users/${encodeURIComponent(id)}`, patchUserBodySchema.parse(body));
  return userSchema.parse(data);
}

/** Refreshes every cached user query (me, details, lists) after a change. */
export function useUpdateUser(meta: ApiMeta = { errorMessage: 'Unable to update user' }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PatchUserBody }) => updateUser(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
    meta,
  });
}

/**
 * A user's own password change (SPEC §7: a password change sends only `password`). Nothing cached
 * changes, so nothing is invalidated.
 */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) => updateUser(id, { password }),
    meta: { errorMessage: 'Unable to change password' },
  });
}
