import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { alertListSchema, type Alert } from '../contracts/alerts';
import type { Network } from '../contracts/common';
import { http } from '../client';
import { useFeatureFlag } from '../feature-flags/get-feature-flag-map';
import { useAccessToken } from '../use-access-token';
import { useAppStream } from '../use-app-stream';

import { alertListQueryKey } from './alert-keys';

export { alertListQueryKey, alertsQueryKey } from './alert-keys';

/**
 * Alerts set on another device are picked up within this time (same-browser tabs are told at once
 * through `alerts-sync.ts`; window focus refetches too).
 */
export const ALERTS_REFRESH_MS = 30_000;

/** `GET /v1/alerts`: the user's alerts, active ones (oldest first) then triggered ones (newest first). */
export async function listAlerts(): Promise<Alert[]> {
  const { data } = await http.get<unknown>('/v1/alerts');
  return alertListSchema.parse(data);
}

/** `pushed`: the app's socket is up — it says when the list changed (`alerts-changed`, a fired alert): no polling. */
export const alertsQueryOptions = (pushed = false) =>
  queryOptions({
    queryKey: alertListQueryKey,
    queryFn: listAlerts,
    staleTime: 5_000,
    refetchInterval: pushed ? false : ALERTS_REFRESH_MS,
    meta: { errorMessage: 'Unable to fetch alerts' },
  });

/**
 * The signed-in user's alerts, active and triggered, in one list (one request, one cache entry that
 * every chart, the Alerts panel and the monitor share). Idle while signed out or while
 * FF_ENABLE_ALERTS is off (the server answers 403 then), so callers need not check the flag.
 *
 * ```ts
 * const { data: alerts = [] } = useAlerts();
 * const lines = alerts.filter((a) => a.status === 'active' && a.exchange === exchange && a.symbol === symbol && a.network === network);
 * ```
 */
export function useAlerts() {
  const enabled = useFeatureFlag('FF_ENABLE_ALERTS');
  const token = useAccessToken();
  const pushed = useAppStream();
  return useQuery({ ...alertsQueryOptions(pushed), enabled: enabled && token !== null });
}

const NONE: Alert[] = [];

/**
 * The active alerts of one market on one network — what every chart of that pair draws as lines (a
 * testnet chart shows the alerts set on testnet). The array keeps its identity until the list
 * changes, so it can feed an effect that pushes lines into the engine.
 */
export function useMarketAlerts(exchange: string, symbol: string, network: Network): Alert[] {
  const { data } = useAlerts();
  return useMemo(() => {
    const found = (data ?? NONE).filter((a) => a.status === 'active' && a.exchange === exchange && a.symbol === symbol && a.network === network);
    return found.length ? found : NONE;
  }, [data, exchange, symbol, network]);
}
