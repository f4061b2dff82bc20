import { useMutation } from '@tanstack/react-query';
import { changePasswordBodySchema, type ChangePasswordBody } from '../contracts/auth';
import { http } from '../client';

/** `POST /v1/auth/change-password`: sets a new password with the single-use token from the reset e-mail. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await http.post('/v1/auth/change-password', changePasswordBodySchema.parse(body), { skipAuth: true });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword, meta: { errorMessage: 'Unable to change password' } });
}
