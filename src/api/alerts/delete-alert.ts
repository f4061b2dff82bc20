import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alert } from '../contracts/alerts';
import { http } from '../client';
import { alertsChanged } from './alerts-cache';
import { alertListQueryKey } from './list-alerts';

/** `DELETE /v1/alerts/{id}`. */
export async function deleteAlert(id: string): Promise<void> {
  await http.delete(`/v1/alerts/${encodeURIComponent(id)}`);
}

/**
 * Deletes an alert (panel × button, or a chart line's delete action): `useDeleteAlert().mutate(id)`.
 * Optimistic: it leaves the list (and the charts) at once, and comes back if the server refuses.
 */
export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAlert,
    onMutate: async (id: string) => {
      await queryClient.cancelQueries({ queryKey: alertListQueryKey });
      const previous = queryClient.getQueryData<Alert[]>(alertListQueryKey);
      if (previous) queryClient.setQueryData<Alert[]>(alertListQueryKey, previous.filter((a) => a.id !== id));
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(alertListQueryKey, context.previous);
    },
    onSettled: () => alertsChanged(queryClient),
    meta: { errorMessage: 'Unable to delete alert' },
  });
}
