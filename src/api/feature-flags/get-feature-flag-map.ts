import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  FEATURE_FLAG_DEFAULTS,
  featureFlagMapSchema,
  type FeatureFlagKey,
  type FeatureFlagMap,
} from '../contracts/feature-flags';
import { http } from '../client';

export const featureFlagMapQueryKey = ['feature-flags', 'map'] as const;

/** `GET /v1/feature-flags/json` (public): every flag by name; keys the server omits keep their defaults. */
export async function getFeatureFlagMap(): Promise<FeatureFlagMap> {
  const { data } = await http.get<unknown>('/v1/feature-flags/json');
  return { ...FEATURE_FLAG_DEFAULTS, ...featureFlagMapSchema.parse(data) };
}

/**
 * Loaded once and never stale (SPEC §7): flags change only when an admin changes them, and the
 * admin's change invalidates this query (`invalidateFeatureFlagMap`). Not refetched on focus.
 */
export const featureFlagMapQueryOptions = () =>
  queryOptions({
    queryKey: featureFlagMapQueryKey,
    queryFn: getFeatureFlagMap,
    staleTime: Infinity,
    gcTime: Infinity,
    meta: { errorMessage: 'Unable to fetch feature flags map' },
  });

export function useFeatureFlagMap() {
  return useQuery(featureFlagMapQueryOptions());
}

/** One flag; false until the map has loaded (the app does not render before it has). */
export function useFeatureFlag(key: FeatureFlagKey): boolean {
  const { data } = useFeatureFlagMap();
  return data?.[key] ?? false;
}

/** Makes every mounted screen re-read the flag map (after an admin changed a flag). */
export function invalidateFeatureFlagMap(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: featureFlagMapQueryKey });
}
