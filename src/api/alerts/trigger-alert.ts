import { triggerAlertBodySchema, triggerAlertResultSchema, type TriggerAlertResult } from '../contracts/alerts';
import { http } from '../client';

/**
 * `POST /v1/alerts/{id}/trigger { price }`: asks the server to mark the alert triggered at `price`.
 * `triggered` is true only for the one call (of all tabs and devices) that did it — that caller
 * notifies the user; `false` comes with the alert as it now is (the caller refetches). Used by the
 * alert monitor, which handles failures itself (no toast here).
 */
export async function triggerAlert(id: string, price: number): Promise<TriggerAlertResult> {
  const { data } = await http.post<unknown>(`/v1/alerts/${encodeURIComponent(id)}/trigger`, triggerAlertBodySchema.parse({ price }));
  return triggerAlertResultSchema.parse(data);
}
