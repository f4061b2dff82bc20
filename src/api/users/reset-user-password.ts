import { useMutation } from '@tanstack/react-query';
import { resetPasswordBodySchema, resetPasswordResultSchema, type ResetPasswordBody, type ResetPasswordResult } from '../contracts/user-admin';
import { http } from '../client';

/** `POST /v1/users/{id}/reset-password` (admin): a reset link, or a temporary password shown once. */
export async function resetUserPassword(id: string, body: ResetPasswordBody): Promise<ResetPasswordResult> {
  const { data } = await http.post<unknown>(`/v1/users/${encodeURIComponent(id)}/reset-password`, resetPasswordBodySchema.parse(body));
  return resetPasswordResultSchema.parse(data);
}

export function useResetUserPassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ResetPasswordBody }) => resetUserPassword(id, body),
    meta: { errorMessage: 'Unable to reset password' },
  });
}
