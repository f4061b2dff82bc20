import { queryOptions, useQuery } from '@tanstack/react-query';
import { featureFlagListSchema, type FeatureFlag } from '../contracts/feature-flags';
import { http } from '../client';

export const featureFlagsQueryKey = ['feature-flags', 'list'] as const;

/** `GET /v1/feature-flags` (admin): the flag list with ids. */
export async function listFeatureFlags(): Promise<FeatureFlag[]> {
  const { data } = await http.get<unknown>('/v1/feature-flags');
  return featureFlagListSchema.parse(data);
}

export const featureFlagsQueryOptions = () =>
  queryOptions({
    queryKey: featureFlagsQueryKey,
    queryFn: listFeatureFlags,
    meta: { errorMessage: 'Unable to fetch feature flags' },
  });

export function useFeatureFlags() {
  return useQuery(featureFlagsQueryOptions());
}
