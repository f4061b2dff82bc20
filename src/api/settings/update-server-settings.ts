import { useMutation, useQueryClient, type MutateOptions, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { applyServerSettingsPatch, patchServerSettingsBodySchema, serverSettingsSchema, type PatchServerSettingsBody, type ServerSettings } from '../contracts/settings';
import { http } from '../client';
import { serverSettingsQueryKey } from './get-server-settings';

/** `PATCH /v1/users/settings` (per-exchange maps merge by exchange, other fields replace): answers the whole settings. */
export async function updateServerSettings(body: PatchServerSettingsBody): Promise<ServerSettings> {
  const { data } = await http.patch<unknown>('/v1/users/settings', patchServerSettingsBodySchema.parse(body));
  return serverSettingsSchema.parse(data);
}

/**
 * A change to the server settings: the fields to replace, or a function of the settings as the
 * cache holds them at call time (optimistic changes still on their way included) returning them —
 * so two quick edits of one list (two drawings placed in a row) both count. `null`: nothing to do.
 */
export type ServerSettingsChange = PatchServerSettingsBody | ((current: ServerSettings) => PatchServerSettingsBody | null);

type SettingsKey = keyof ServerSettings;

/** A change as it was applied to the cache: what to send, and what to put back if it fails. */
export interface AppliedSettingsChange {
  patch: PatchServerSettingsBody;
  /** The cache's values of the patched keys before the change (null: nothing was cached). */
  previous: Partial<ServerSettings> | null;
  /** Per patched key, the sequence number this change wrote it with. */
  seq: number;
}

/**
 * Per cache: the last change written to each key, and how many changes of each key the server has
 * not answered yet. A failed change restores a key only if no later change wrote it, and a server
 * answer (this mutation's, or another request's such as the layout saver's) never overwrites a key
 * whose optimistic change is still on its way.
 */
interface Bookkeeping {
  seq: number;
  lastWriter: Map<SettingsKey, number>;
  pending: Map<SettingsKey, number>;
}
const books = new WeakMap<QueryClient, Bookkeeping>();
function bookOf(queryClient: QueryClient): Bookkeeping {
  let book = books.get(queryClient);
  if (!book) {
    book = { seq: 0, lastWriter: new Map(), pending: new Map() };
    books.set(queryClient, book);
  }
  return book;
}

const keysOf = (patch: PatchServerSettingsBody) => (Object.keys(patch) as SettingsKey[]).filter((k) => patch[k] !== undefined);

/** Applies a change to the cached settings at once (synchronously) and books it as in flight. */
export function applyServerSettingsChange(queryClient: QueryClient, change: ServerSettingsChange): AppliedSettingsChange | null {
  const current = queryClient.getQueryData<ServerSettings>(serverSettingsQueryKey);
  const patch = typeof change === 'function' ? (current ? change(current) : null) : change;
  if (!patch || keysOf(patch).length === 0) return null;
  const book = bookOf(queryClient);
  const seq = ++book.seq;
  let previous: Partial<ServerSettings> | null = null;
  if (current) {
    previous = {};
    for (const key of keysOf(patch)) (previous as Record<string, unknown>)[key] = current[key];
    queryClient.setQueryData<ServerSettings>(serverSettingsQueryKey, applyServerSettingsPatch(current, patch));
  }
  for (const key of keysOf(patch)) {
    book.lastWriter.set(key, seq);
    book.pending.set(key, (book.pending.get(key) ?? 0) + 1);
  }
  return { patch, previous, seq };
}

function release(queryClient: QueryClient, applied: AppliedSettingsChange): void {
  const { pending } = bookOf(queryClient);
  for (const key of keysOf(applied.patch)) {
    const left = (pending.get(key) ?? 1) - 1;
    if (left > 0) pending.set(key, left);
    else pending.delete(key);
  }
}

/** The server refused a change: its keys go back to what they were, unless a later change wrote them since. */
export function rollBackServerSettingsChange(queryClient: QueryClient, applied: AppliedSettingsChange): void {
  release(queryClient, applied);
  const current = queryClient.getQueryData<ServerSettings>(serverSettingsQueryKey);
  if (!current || !applied.previous) return;
  const { lastWriter } = bookOf(queryClient);
  const restored: Record<string, unknown> = { ...current };
  let changed = false;
  for (const key of keysOf(applied.patch)) {
    if (lastWriter.get(key) !== applied.seq) continue;
    restored[key] = applied.previous[key];
    changed = true;
  }
  if (changed) queryClient.setQueryData<ServerSettings>(serverSettingsQueryKey, restored as ServerSettings);
}

/**
 * Puts the server's answer (the whole settings) into the cache, keeping the keys whose optimistic
 * change is still on its way: an answer that left before that change landed would undo it on screen.
 */
export function receiveServerSettings(queryClient: QueryClient, settings: ServerSettings): void {
  const { pending } = bookOf(queryClient);
  const current = queryClient.getQueryData<ServerSettings>(serverSettingsQueryKey);
  if (!current || pending.size === 0) {
    queryClient.setQueryData<ServerSettings>(serverSettingsQueryKey, settings);
    return;
  }
  const merged: Record<string, unknown> = { ...settings };
  for (const key of pending.keys()) merged[key] = current[key];
  queryClient.setQueryData<ServerSettings>(serverSettingsQueryKey, merged as ServerSettings);
}

export const updateServerSettingsMutationKey = ['users', 'settings', 'update'] as const;

type ChangeOptions = MutateOptions<ServerSettings, Error, AppliedSettingsChange>;

/**
 * Changes server settings optimistically: the cache takes the change at once (SPEC §4: risk and
 * stop-loss options; also favourites, named layouts and chart drawings), the PATCH follows, and a
 * refusal puts the previous values back and toasts the server's message, else
 * 'Unable to update settings.' (SPEC §8). Changes are sent one at a time, in order (one mutation
 * scope), so a later edit of a list never lands before an earlier one.
 *
 * ```ts
 * const { mutate } = useUpdateServerSettings();
 * mutate({ riskOptions: [0.5, 1, 2] });
 * mutate((s) => ({ horizontalLines: { binance: [...(s.horizontalLines.binance ?? []), line] } })); // other exchanges' lists stay
 * ```
 */
export function useUpdateServerSettings() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: updateServerSettingsMutationKey,
    scope: { id: 'server-settings' },
    mutationFn: (applied: AppliedSettingsChange) => updateServerSettings(applied.patch),
    onSuccess: (settings, applied) => {
      release(queryClient, applied);
      receiveServerSettings(queryClient, settings);
    },
    onError: (_error, applied) => rollBackServerSettingsChange(queryClient, applied),
    meta: { errorMessage: 'Unable to update settings.' },
  });
  const { mutate: run, mutateAsync: runAsync, isPending, error } = mutation;

  const mutate = useCallback(
    (change: ServerSettingsChange, options?: ChangeOptions): void => {
      const applied = applyServerSettingsChange(queryClient, change);
      if (applied) run(applied, options);
    },
    [queryClient, run],
  );
  const mutateAsync = useCallback(
    async (change: ServerSettingsChange): Promise<ServerSettings | null> => {
      const applied = applyServerSettingsChange(queryClient, change);
      return applied ? runAsync(applied) : null;
    },
    [queryClient, runAsync],
  );
  return { mutate, mutateAsync, isPending, error };
}
