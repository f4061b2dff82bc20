import { queryOptions, useQuery } from '@tanstack/react-query';
import { serverSettingsSchema, type ServerSettings } from '../contracts/settings';
import { http } from '../client';
import { useAccessToken } from '../use-access-token';

export const serverSettingsQueryKey = ['users', 'settings'] as const;

/** `GET /v1/users/settings`: the settings that follow the user across devices (SPEC §3). */
export async function getServerSettings(): Promise<ServerSettings> {
  const { data } = await http.get<unknown>('/v1/users/settings');
  return serverSettingsSchema.parse(data);
}

export const serverSettingsQueryOptions = () =>
  queryOptions({
    queryKey: serverSettingsQueryKey,
    queryFn: getServerSettings,
    meta: { errorMessage: 'Unable to fetch settings.' },
  });

export function useServerSettings() {
  const token = useAccessToken();
  return useQuery({ ...serverSettingsQueryOptions(), enabled: token !== null });
}
