import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { z } from 'zod';
import { apiKeysQueryKey } from '../api-keys/list-api-keys';
import { http } from '../client';
import { apiKeySchema, type ApiKey } from '../contracts/api-keys';
import { activityEntrySchema, managedBracketInfoSchema, type ActivityEntry, type ManagedBracketInfo } from '../contracts/trading';
import { useFeatureFlag } from '../feature-flags/get-feature-flag-map';
import { useAppStream } from '../use-app-stream';
import { activityQueryKey, managedQueryKey } from './managed-keys';

/**
 * Brackets the server guards (issue 21) and manages (FF_ENABLE_SEMI_AUTO, issue 13): which brackets
 * of a key it watches — with the stop and targets a waiting entry gets when it fills — the key's
 * consent to it, and the log of what the server did.
 */

export { activityQueryKey, managedQueryKey } from './managed-keys';

/** `GET /v1/trade/{apiKeyId}/managed`: running ones first. */
export async function listManagedBrackets(apiKeyId: string): Promise<ManagedBracketInfo[]> {
  const { data } = await http.get<unknown>(`/v1/trade/${encodeURIComponent(apiKeyId)}/managed`);
  return z.array(managedBracketInfoSchema).parse(data);
}

/** How often the guarded brackets and the activity log are read while the app's socket is down. */
export const MANAGED_POLL_MS = 5000;

/**
 * The key's guarded brackets: the server changes them with no tab involved, and says so on the app's socket
 * (`managed-changed`: read again); polled every 5 s only while that socket is down (issue 26).
 */
export function useManagedBrackets(apiKeyId: string | null) {
  const pushed = useAppStream();
  return useQuery({
    queryKey: managedQueryKey(apiKeyId ?? 'none'),
    queryFn: () => listManagedBrackets(apiKeyId!),
    enabled: apiKeyId !== null,
    refetchInterval: pushed ? false : MANAGED_POLL_MS,
    meta: { errorMessage: 'Unable to read the brackets the server guards' },
  });
}

const NONE = new Set<string>();
/** Bracket ids the server manages now on the key (break-even, trailing): order rows and chart lines say "managed by server". */
export function useManagedBracketIds(apiKeyId: string | null): ReadonlySet<string> {
  const on = useFeatureFlag('FF_ENABLE_SEMI_AUTO');
  const { data } = useManagedBrackets(apiKeyId);
  return useMemo(() => (on && data?.length ? new Set(data.filter((m) => m.state === 'running' && m.options !== null).map((m) => m.bracketId)) : NONE), [on, data]);
}

const NO_PLANS = new Map<string, ManagedBracketInfo['planned']>();
/** Per bracket id whose entry waits: the stop and targets the server places when it fills. */
export function useWaitingLegs(apiKeyId: string | null): ReadonlyMap<string, ManagedBracketInfo['planned']> {
  const { data } = useManagedBrackets(apiKeyId);
  return useMemo(() => (data?.some((m) => m.phase === 'waiting') ? new Map(data.filter((m) => m.phase === 'waiting').map((m) => [m.bracketId, m.planned])) : NO_PLANS), [data]);
}

/** `PUT` / `DELETE /v1/api-keys/{id}/server-custody`. */
export async function setServerCustody(apiKeyId: string, on: boolean): Promise<ApiKey> {
  const url = `/v1/api-keys/${encodeURIComponent(apiKeyId)}/server-custody`;
  const { data } = on ? await http.put<unknown>(url) : await http.delete<unknown>(url);
  return apiKeySchema.parse(data);
}

export function useSetServerCustody() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ apiKeyId, on }: { apiKeyId: string; on: boolean }) => setServerCustody(apiKeyId, on),
    onSuccess: (key) => {
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryKey, (list) => list?.map((k) => (k.id === key.id ? key : k)));
      void queryClient.invalidateQueries({ queryKey: managedQueryKey(key.id) });
      void queryClient.invalidateQueries({ queryKey: activityQueryKey });
    },
    meta: { errorMessage: 'Unable to change server management for this key' },
  });
}

/** `GET /v1/notifications/activity`: what server-side jobs did, newest first. */
export async function listActivity(): Promise<ActivityEntry[]> {
  const { data } = await http.get<unknown>('/v1/notifications/activity');
  return z.array(activityEntrySchema).parse(data);
}

/** The activity log, pushed like the guarded brackets (`managed-changed`), polled only while the app's socket is down. */
export function useActivity(enabled: boolean) {
  const pushed = useAppStream();
  return useQuery({ queryKey: activityQueryKey, queryFn: listActivity, enabled, refetchInterval: enabled && !pushed ? MANAGED_POLL_MS : false, meta: { errorMessage: 'Unable to read the activity log' } });
}
