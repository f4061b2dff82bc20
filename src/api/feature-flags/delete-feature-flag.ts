import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../client';

/** `DELETE /v1/feature-flags/{id}`. */
export async function deleteFeatureFlag(id: string): Promise<void> {
  await http.delete(`/v1/feature-flags/${encodeURIComponent(id)}`);
}

export function useDeleteFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFeatureFlag,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['feature-flags'] }),
    meta: { errorMessage: 'Error deleting feature flag' },
  });
}
