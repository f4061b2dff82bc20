import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSchema, rearmAlertBodySchema, type Alert, type RearmAlertBody } from '../contracts/alerts';
import { http } from '../client';
import { alertsChanged, putAlertInCache } from './alerts-cache';

export interface RearmAlertVariables extends RearmAlertBody {
  id: string;
}

/** `POST /v1/alerts/{id}/rearm`: active again, judged from `initialPrice` (the live price now). */
export async function rearmAlert({ id, ...body }: RearmAlertVariables): Promise<Alert> {
  const { data } = await http.post<unknown>(`/v1/alerts/${encodeURIComponent(id)}/rearm`, rearmAlertBodySchema.parse(body));
  return alertSchema.parse(data);
}

/** `useRearmAlert().mutate({ id, initialPrice: lastPrice, triggerPrice? })`. */
export function useRearmAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rearmAlert,
    onSuccess: (alert) => {
      putAlertInCache(queryClient, alert);
      void alertsChanged(queryClient);
    },
    meta: { errorMessage: 'Unable to re-arm alert' },
  });
}
