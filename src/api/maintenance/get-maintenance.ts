import { queryOptions, useQuery } from '@tanstack/react-query';
import { maintenanceSchema, type Maintenance } from '../contracts/maintenance';
import { http } from '../client';

export const maintenanceQueryKey = ['maintenance'] as const;
/** How often the banner re-reads the message, besides on window focus. */
export const MAINTENANCE_POLL_MS = 20_000;

/** `GET /v1/maintenance`: the banner message, null when none is set. */
export async function getMaintenance(): Promise<Maintenance> {
  const { data } = await http.get<unknown>('/v1/maintenance');
  return maintenanceSchema.parse(data);
}

/** Polled in the background: a failed poll keeps the last message and toasts nothing. */
export const maintenanceQueryOptions = () =>
  queryOptions({
    queryKey: maintenanceQueryKey,
    queryFn: getMaintenance,
    refetchInterval: MAINTENANCE_POLL_MS,
    meta: { silent: true },
  });

export function useMaintenance(enabled = true) {
  return useQuery({ ...maintenanceQueryOptions(), enabled });
}
