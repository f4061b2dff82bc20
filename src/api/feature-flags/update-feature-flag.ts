import { useMutation, useQueryClient } from '@tanstack/react-query';
import { featureFlagSchema, updateFeatureFlagBodySchema, type FeatureFlag } from '../contracts/feature-flags';
import { http } from '../client';

/** `PUT /v1/feature-flags/{id}` with the flag object. */
export async function updateFeatureFlag(flag: FeatureFlag): Promise<FeatureFlag> {
  const { data } = await http.put<unknown>(`/v1/feature-flags/${encodeURIComponent(flag.id)}`, updateFeatureFlagBodySchema.parse(flag));
  return featureFlagSchema.parse(data);
}

export function useUpdateFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFeatureFlag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['feature-flags'] }),
    meta: { errorMessage: 'Error updating feature flag' },
  });
}
