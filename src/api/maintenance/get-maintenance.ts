import { queryOptions, useQuery } from '@tanstack/react-query';
import { maintenanceSchema, type Maintenance } from '../contracts/maintenance';
import { http } from '../client';
import { useAppStream } from '../use-app-stream';

import { maintenanceQueryKey } from './maintenance-keys';

export { maintenanceQueryKey } from './maintenance-keys';
/** How often the banner re-reads the message while the app's socket is down (signed out: always), besides on window focus. */
export const MAINTENANCE_POLL_MS = 20_000;

/** `GET /v1/maintenance`: the banner message, null when none is set. */
export async function getMaintenance(): Promise<Maintenance> {
  const { data } = await http.get<unknown>('/v1/maintenance');
  return maintenanceSchema.parse(data);
}

/** Polled in the background unless `pushed` (the socket says when it changed): a failed poll keeps the last message and toasts nothing. */
export const maintenanceQueryOptions = (pushed = false) =>
  queryOptions({
    queryKey: maintenanceQueryKey,
    queryFn: getMaintenance,
    refetchInterval: pushed ? false : MAINTENANCE_POLL_MS,
    meta: { silent: true },
  });

export function useMaintenance(enabled = true) {
  const pushed = useAppStream();
  return useQuery({ ...maintenanceQueryOptions(pushed), enabled });
}
