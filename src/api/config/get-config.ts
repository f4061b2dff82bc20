import { queryOptions, useQuery } from '@tanstack/react-query';
import { appConfigSchema, type AppConfig } from '../contracts/config';
import { http } from '../client';

export const configQueryKey = ['config'] as const;

/** `GET /v1/config` (public): product name, market-data mode, exchange URLs, Sentry DSN, version. */
export async function getConfig(): Promise<AppConfig> {
  const { data } = await http.get<unknown>('/v1/config');
  return appConfigSchema.parse(data);
}

/**
 * Loaded once per page: the server's configuration does not change while it runs. Silent: the app
 * loads it at startup (and reports a failure there); screens fall back to defaults without it.
 */
export const configQueryOptions = () =>
  queryOptions({
    queryKey: configQueryKey,
    queryFn: getConfig,
    staleTime: Infinity,
    meta: { silent: true },
  });

export function useConfig() {
  return useQuery(configQueryOptions());
}
