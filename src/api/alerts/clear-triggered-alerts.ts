import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clearAlertsResultSchema, type ClearAlertsResult } from '../contracts/alerts';
import { http } from '../client';
import { alertsChanged, removeAlertsFromCache } from './alerts-cache';

/** `DELETE /v1/alerts?status=triggered`: empties the triggered list. */
export async function clearTriggeredAlerts(): Promise<ClearAlertsResult> {
  const { data } = await http.delete<unknown>('/v1/alerts', { params: { status: 'triggered' } });
  return clearAlertsResultSchema.parse(data);
}

export function useClearTriggeredAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearTriggeredAlerts,
    onSuccess: () => {
      removeAlertsFromCache(queryClient, (a) => a.status !== 'triggered');
      void alertsChanged(queryClient);
    },
    meta: { errorMessage: 'Unable to clear triggered alerts' },
  });
}
