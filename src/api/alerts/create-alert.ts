import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSchema, createAlertBodySchema, type Alert, type CreateAlertBody } from '../contracts/alerts';
import { http } from '../client';
import { alertsChanged, putAlertInCache } from './alerts-cache';

/** `POST /v1/alerts`. `initialPrice` must be the live price now: it decides whether the alert waits for a rise or a fall. */
export async function createAlert(body: CreateAlertBody): Promise<Alert> {
  const { data } = await http.post<unknown>('/v1/alerts', createAlertBodySchema.parse(body));
  return alertSchema.parse(data);
}

/**
 * Creates an alert (from the Alerts panel, a chart's context menu or hotkey, or a new alert line):
 *
 * ```ts
 * const { mutate: create } = useCreateAlert();
 * create({ exchange, symbol, initialPrice: lastPrice, triggerPrice: priceAtCursor });
 * ```
 * The new alert is in the `useAlerts()` list as soon as the server answers; failures toast the server's message.
 */
export function useCreateAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAlert,
    onSuccess: (alert) => {
      putAlertInCache(queryClient, alert);
      void alertsChanged(queryClient);
    },
    meta: { errorMessage: 'Unable to create alert' },
  });
}
