import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiClient } from '../api/client';
import { useMe } from '../api/users/get-me';
import { useAccessToken } from '../api/use-access-token';
import { bindLocalStateToUser, resetSession } from '../state';
import { clearUserData } from './query-client';

/**
 * Keeps everything user-specific in step with the tokens (SPEC §4): sign-out (here, in another tab,
 * or a failed refresh) drops cached user data and the live-connection state; a sign-in drops what
 * a previous account left; the locally persisted stores follow the signed-in user's id.
 */
export function SessionEffects() {
  const queryClient = useQueryClient();

  useEffect(
    () =>
      apiClient.subscribe((change) => {
        if (!change.signedIn) {
          resetSession();
          clearUserData(queryClient);
        } else if (change.reason === 'signin') {
          clearUserData(queryClient);
        }
      }),
    [queryClient],
  );

  const token = useAccessToken();
  const { data: me } = useMe();
  // undefined while signed in but the user is still loading: keep the current binding until known.
  const userId = token === null ? null : me?.id;
  useEffect(() => {
    if (userId === undefined) return;
    bindLocalStateToUser(userId).catch((error: unknown) => console.error('Could not load local settings', error));
  }, [userId]);

  return null;
}
