import { useSyncExternalStore } from 'react';
import { apiClient } from './client';

/** The current access token (null = signed out); re-renders on sign-in, refresh and sign-out in any tab. */
export function useAccessToken(): string | null {
  return useSyncExternalStore(apiClient.subscribe, apiClient.getAccessToken, apiClient.getAccessToken);
}
