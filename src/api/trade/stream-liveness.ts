/**
 * Which keys' account streams are live in this page (`panels/shared/trading/account-store.ts` reports them):
 * while one is, the open orders come from its order events and positions and balance are read again on its
 * fills, so a trading action need not read them again itself (`useTradeAction`). Counted: two streams of one
 * key (two unlocks) may be up at once.
 */
const live = new Map<string, number>();

/** A stream of the key went live (`true`) or stopped being live (`false`). */
export function reportAccountStream(apiKeyId: string, isLive: boolean): void {
  const n = (live.get(apiKeyId) ?? 0) + (isLive ? 1 : -1);
  if (n > 0) live.set(apiKeyId, n);
  else live.delete(apiKeyId);
}

export function isAccountStreamLive(apiKeyId: string): boolean {
  return live.has(apiKeyId);
}
