import { useMutation } from '@tanstack/react-query';
import { forgotPasswordBodySchema, type ForgotPasswordBody } from '../contracts/auth';
import { http } from '../client';

/** `POST /v1/auth/forgot-password`: the server answers the same whether or not the e-mail exists. */
export async function forgotPassword(body: ForgotPasswordBody): Promise<void> {
  await http.post('/v1/auth/forgot-password', forgotPasswordBodySchema.parse(body), { skipAuth: true });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword, meta: { errorMessage: 'Unable to send the reset link' } });
}
