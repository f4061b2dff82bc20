import { useMutation } from '@tanstack/react-query';
import { apiClient, http } from '../client';

/**
 * `POST /v1/auth/signout` (Bearer access token, body `{ refreshToken }`) so the server revokes the
 * session, then forgets the tokens locally and in other tabs. The local sign-out happens even when
 * the server cannot be reached: a user who clicks "Log out" must end up signed out.
 */
export async function signout(): Promise<void> {
  const refreshToken = apiClient.getRefreshToken();
  try {
    if (refreshToken !== null || apiClient.getAccessToken() !== null) await http.post('/v1/auth/signout', refreshToken ? { refreshToken } : {});
  } catch (error) {
    console.warn('Server sign-out failed; signing out locally', error);
  } finally {
    apiClient.clearTokens('signout');
  }
}

export function useSignout() {
  return useMutation({ mutationFn: signout, meta: { silent: true } });
}
