import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import { useApiKeys } from '../../../api/api-keys/list-api-keys';
import { lockApiKey } from '../../../api/api-keys/unlock-api-key';
import type { ApiKey } from '../../../api/contracts/api-keys';
import { onOutOfSyncSettled } from '../../../api/trade/out-of-sync';
import type { TradeKey } from '../../../api/trade/trade-key';
import { toastInfo } from '../../../ui/toast';
import { rememberApiKeyPassword, setApiKeyId, userSettings } from '../../../state/user-settings';
import { accountStatus, retainAccountStream, type AccountStatus } from './account-store';

// An order whose placing timed out is settled later (out-of-sync.ts's OUT_OF_SYNC rows): say how.
onOutOfSyncSettled((note) => toastInfo(note));

/** Passwords typed without "remember": kept for this page only, never stored. */
const sessionPasswords = new Map<string, string>();
const sessionListeners = new Set<() => void>();
const notifySession = () => sessionListeners.forEach((l) => l());

export interface TradingAccount {
  exchange: string;
  network: 'MAINNET' | 'TESTNET';
  /** The user's keys for this exchange and network. */
  keys: ApiKey[];
  keysLoading: boolean;
  key: ApiKey | null;
  /** Set when the key is unlocked (its password known): what the trade calls send. */
  tradeKey: TradeKey | null;
  remembered: boolean;
  status: AccountStatus | null;
  selectKey(id: string): void;
  unlock(password: string, remember: boolean): void;
  /** Forgets the password (stored or typed) of the key, and the server's unlock of it for this sign-in. */
  lock(): void;
}

/**
 * The key the trading panels trade with (SPEC §3 `apiKeyId`, `useTestnet`, persisted passwords):
 * one of the user's keys for the active chart's exchange and network, unlocked by its password, and
 * the live account stream of that key (shared by every panel).
 */
export function useTradingAccount(): TradingAccount {
  const s = useSnapshot(userSettings);
  const network = s.useTestnet ? 'TESTNET' : 'MAINNET';
  const list = useApiKeys();
  const keys = (list.data ?? []).filter((k) => k.exchange === s.exchangeName && k.network === network);
  const key = keys.find((k) => k.id === s.apiKeyId) ?? keys[0] ?? null;
  const session = useSyncExternalStore(
    (l) => {
      sessionListeners.add(l);
      return () => sessionListeners.delete(l);
    },
    () => (key ? sessionPasswords.get(key.id) : undefined),
  );
  const stored = key ? s.apiKeyPasswords[key.id] : undefined;
  const password = stored ?? session;
  const apiKeyId = key?.id;
  const [tradeKey, setTradeKey] = useState<TradeKey | null>(null);
  useEffect(() => {
    setTradeKey(apiKeyId && password ? { apiKeyId, keyPassword: password } : null);
  }, [apiKeyId, password]);

  const queryClient = useQueryClient();
  const [, force] = useState(0);
  useEffect(() => {
    if (!tradeKey) return;
    return retainAccountStream(queryClient, tradeKey, () => force((n) => n + 1));
  }, [queryClient, tradeKey]);

  const selectKey = useCallback((id: string) => setApiKeyId(id), []);
  const unlock = useCallback(
    (pw: string, remember: boolean) => {
      if (!key) return;
      if (remember) rememberApiKeyPassword(key.id, pw);
      else {
        sessionPasswords.set(key.id, pw);
        notifySession();
      }
    },
    [key],
  );
  const lock = useCallback(() => {
    if (!key) return;
    rememberApiKeyPassword(key.id, null);
    sessionPasswords.delete(key.id);
    notifySession();
    // The server's unlock for this sign-in ends too; a failed call only leaves it to its idle end.
    lockApiKey(key.id).catch(() => undefined);
  }, [key]);

  return {
    exchange: s.exchangeName,
    network,
    keys,
    keysLoading: list.isLoading,
    key,
    tradeKey,
    remembered: stored !== undefined,
    status: accountStatus(tradeKey),
    selectKey,
    unlock,
    lock,
  };
}
