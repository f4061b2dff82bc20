import { useMutation, useQueryClient } from '@tanstack/react-query';
import { maintenanceSchema, setMaintenanceBodySchema, type Maintenance, type SetMaintenanceBody } from '../contracts/maintenance';
import { http } from '../client';
import { maintenanceQueryKey } from './get-maintenance';

/** `POST /v1/maintenance` (admin); an empty message clears the banner. */
export async function setMaintenance(body: SetMaintenanceBody): Promise<Maintenance> {
  const { data } = await http.post<unknown>('/v1/maintenance', setMaintenanceBodySchema.parse(body));
  return maintenanceSchema.parse(data);
}

export function useSetMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMaintenance,
    onSuccess: (maintenance) => queryClient.setQueryData(maintenanceQueryKey, maintenance),
    meta: { errorMessage: 'Unable to set maintenance message' },
  });
}
