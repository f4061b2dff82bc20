import { useMutation } from '@tanstack/react-query';
import { signupBodySchema, tokensSchema, type SignupBody, type Tokens } from '../contracts/auth';
import { apiClient, http } from '../client';

/** `POST /v1/auth/signup`; `inviteCode` and `referralCode` come from `/register?invite=` and `?ref=`. */
export async function signup(body: SignupBody): Promise<Tokens> {
  const { data } = await http.post<unknown>('/v1/auth/signup', signupBodySchema.parse(body), { skipAuth: true });
  return tokensSchema.parse(data);
}

/** Registers and stores both tokens: the new user is signed in at once (SPEC §4). */
export function useSignup() {
  return useMutation({
    mutationFn: signup,
    onSuccess: (tokens) => apiClient.setTokens(tokens),
    meta: { errorMessage: 'Unable to register' },
  });
}
