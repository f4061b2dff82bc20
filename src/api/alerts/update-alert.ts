import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSchema, updateAlertBodySchema, type Alert, type UpdateAlertBody } from '../contracts/alerts';
import { http } from '../client';
import { alertsChanged, putAlertInCache } from './alerts-cache';
import { alertListQueryKey } from './list-alerts';

export interface UpdateAlertVariables extends UpdateAlertBody {
  id: string;
}

/** `PATCH /v1/alerts/{id}`: move the trigger (with the live price now as `initialPrice`) and/or edit the note. */
export async function updateAlert({ id, ...body }: UpdateAlertVariables): Promise<Alert> {
  const { data } = await http.patch<unknown>(`/v1/alerts/${encodeURIComponent(id)}`, updateAlertBodySchema.parse(body));
  return alertSchema.parse(data);
}

/**
 * Moves an active alert — e.g. when its chart line is dropped at a new price:
 *
 * ```ts
 * const { mutate: update } = useUpdateAlert();
 * update({ id, triggerPrice: droppedPrice, initialPrice: lastPrice });   // or { id, note }
 * ```
 * Optimistic: the cached alert takes the new prices at once (the line stays where it was dropped)
 * and goes back if the server refuses (e.g. 409: it triggered meanwhile).
 */
export function useUpdateAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAlert,
    onMutate: async ({ id, ...patch }) => {
      await queryClient.cancelQueries({ queryKey: alertListQueryKey });
      const previous = queryClient.getQueryData<Alert[]>(alertListQueryKey);
      if (previous) {
        queryClient.setQueryData<Alert[]>(
          alertListQueryKey,
          previous.map((a) =>
            a.id === id
              ? {
                  ...a,
                  ...(patch.triggerPrice !== undefined && patch.initialPrice !== undefined ? { triggerPrice: patch.triggerPrice, initialPrice: patch.initialPrice } : {}),
                  ...(patch.note !== undefined ? { note: patch.note || null } : {}),
                }
              : a,
          ),
        );
      }
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(alertListQueryKey, context.previous);
    },
    onSuccess: (alert) => putAlertInCache(queryClient, alert),
    onSettled: () => alertsChanged(queryClient),
    meta: { errorMessage: 'Unable to update alert' },
  });
}
