import { useSyncExternalStore } from 'react';

/**
 * Legs a refused bracket left live because cancelling them failed (a 207's `partial.live`), by
 * client id, so the Orders panel can mark them until they are gone (issue 21).
 */
const leftLive = new Map<string, Map<string, string>>();
let leftLiveVersion = 0;
const leftLiveListeners = new Set<() => void>();

export function markLeftLive(apiKeyId: string, legs: ReadonlyArray<{ clientOrderId: string }>, why: string): void {
  const m = leftLive.get(apiKeyId) ?? new Map<string, string>();
  for (const l of legs) m.set(l.clientOrderId, why);
  leftLive.set(apiKeyId, m);
  leftLiveVersion++;
  leftLiveListeners.forEach((l) => l());
}

/** Client id → why it is live, for the key's legs left live by a refused bracket. */
export function useLeftLive(apiKeyId: string | null): ReadonlyMap<string, string> {
  useSyncExternalStore(
    (l) => {
      leftLiveListeners.add(l);
      return () => leftLiveListeners.delete(l);
    },
    () => leftLiveVersion,
  );
  return (apiKeyId && leftLive.get(apiKeyId)) || EMPTY_LEFT_LIVE;
}
const EMPTY_LEFT_LIVE: ReadonlyMap<string, string> = new Map();
