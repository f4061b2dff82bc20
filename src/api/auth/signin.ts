import { useMutation } from '@tanstack/react-query';
import { signinBodySchema, tokensSchema, type SigninBody, type Tokens } from '../contracts/auth';
import { apiClient, http } from '../client';

/** `POST /v1/auth/signin`. */
export async function signin(body: SigninBody): Promise<Tokens> {
  const { data } = await http.post<unknown>('/v1/auth/signin', signinBodySchema.parse(body), { skipAuth: true });
  return tokensSchema.parse(data);
}

/** Signs in and stores both tokens (SPEC §4); the auth-only guard then moves on to /trade. */
export function useSignin() {
  return useMutation({
    mutationFn: signin,
    onSuccess: (tokens) => apiClient.setTokens(tokens),
    meta: { errorMessage: 'Unable to log in' },
  });
}
