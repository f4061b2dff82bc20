import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createFeatureFlagBodySchema, featureFlagSchema, type CreateFeatureFlagBody, type FeatureFlag } from '../contracts/feature-flags';
import { http } from '../client';

/** `POST /v1/feature-flags` (admin). */
export async function createFeatureFlag(body: CreateFeatureFlagBody): Promise<FeatureFlag> {
  const { data } = await http.post<unknown>('/v1/feature-flags', createFeatureFlagBodySchema.parse(body));
  return featureFlagSchema.parse(data);
}

/** Refreshes the flag list and the flag map (SPEC §4: successful flag changes refresh the list). */
export function useCreateFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeatureFlag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['feature-flags'] }),
    meta: { errorMessage: 'Error creating feature flag' },
  });
}
