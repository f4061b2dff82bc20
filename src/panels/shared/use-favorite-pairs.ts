import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { FavoritePair, ServerSettings } from '../../api/contracts/settings';
import { serverSettingsQueryKey, useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import { toggleFavoritePair } from '../../state/favorites';

const NONE: readonly FavoritePair[] = [];

/**
 * The user's favourite pairs (server-side `favoritePairs`, SPEC §3) and the changes panels make to
 * them. Changes are optimistic; a refused save rolls back and toasts 'Unable to update settings.'.
 */
export function useFavoritePairs() {
  const queryClient = useQueryClient();
  const { data } = useServerSettings();
  const { mutate } = useUpdateServerSettings();

  // Read the cache at call time, not the render's copy: two quick clicks must both count.
  const current = useCallback(
    () => queryClient.getQueryData<ServerSettings>(serverSettingsQueryKey)?.favoritePairs ?? NONE,
    [queryClient],
  );
  const save = useCallback((favoritePairs: FavoritePair[]) => mutate({ favoritePairs }), [mutate]);

  return {
    favorites: data?.favoritePairs ?? NONE,
    loaded: data !== undefined,
    toggle: useCallback((pair: FavoritePair) => save(toggleFavoritePair(current(), pair)), [current, save]),
    remove: useCallback(
      (pair: FavoritePair) => save(current().filter((f) => f.exchange !== pair.exchange || f.symbol !== pair.symbol)),
      [current, save],
    ),
    replace: save,
    current,
  };
}
