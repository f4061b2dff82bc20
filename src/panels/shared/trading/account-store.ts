import type { QueryClient } from '@tanstack/react-query';
import type { Fill, Order, StreamServerMessage, StreamState } from '../../../api/contracts/trading';
import { FINAL_ORDER_STATUSES } from '../../../api/contracts/trading';
import { tradeQueryKey, type TradeKey } from '../../../api/trade/trade-key';
import { reportAccountStream } from '../../../api/trade/stream-liveness';
import { openTradeStream, type TradeStreamOptions } from '../../../api/trade/trade-stream';
import { userSettings } from '../../../state/user-settings';
import { playAlertSound } from '../../../ui/alert-sounds';
import { claimRing } from '../../../ui/claim-ring';
import { toastInfo } from '../../../ui/toast';
import { show } from './format';

/**
 * One account stream per key for every trading panel on the page (the server shares one exchange
 * connection per key between tabs; this shares one socket between panels). Snapshots replace the
 * react-query data of the key, order events patch the open orders, fills make the account re-read.
 */
export interface AccountStatus {
  state: StreamState;
  reason?: string;
}

interface Entry {
  refs: number;
  status: AccountStatus;
  listeners: Set<() => void>;
  close: () => void;
}

const entries = new Map<string, Entry>();

/** The toast a fill shows (issue 22): side, size, symbol, price. */
export function fillText(fill: Fill): string {
  return `Filled: ${fill.side === 'BUY' ? 'bought' : 'sold'} ${show(fill.qty)} ${fill.symbol} at ${show(fill.price)}${fill.liquidation ? ' (liquidation)' : ''}`;
}

/** A fill rings (the user's sound) and toasts once in this browser, whichever tabs hear it. */
function announceFill(apiKeyId: string, fill: Fill): void {
  void claimRing(`fill:${apiKeyId}:${fill.id}`).then((mine) => {
    if (!mine) return;
    void playAlertSound(userSettings.alertSound);
    toastInfo(fillText(fill));
  });
}
const IDLE: AccountStatus = { state: 'connecting' };

export function applyStreamMessage(client: QueryClient, apiKeyId: string, m: StreamServerMessage): void {
  switch (m.type) {
    case 'snapshot':
      client.setQueryData(tradeQueryKey.orders(apiKeyId), m.orders);
      client.setQueryData(tradeQueryKey.positions(apiKeyId), m.positions);
      client.setQueryData(tradeQueryKey.balance(apiKeyId), m.balance);
      return;
    case 'order':
      client.setQueryData<Order[]>(tradeQueryKey.orders(apiKeyId), (list = []) => {
        const rest = list.filter((o) => o.id !== m.order.id);
        return FINAL_ORDER_STATUSES.includes(m.order.status) ? rest : [m.order, ...rest];
      });
      return;
    case 'fill':
      void client.invalidateQueries({ queryKey: tradeQueryKey.positions(apiKeyId) });
      void client.invalidateQueries({ queryKey: tradeQueryKey.balance(apiKeyId) });
      announceFill(apiKeyId, m.fill);
      return;
    default:
      return;
  }
}

/** Subscribes a panel to the key's stream; returns the unsubscribe. */
export function retainAccountStream(client: QueryClient, key: TradeKey, onChange: () => void, options?: TradeStreamOptions): () => void {
  const id = `${key.apiKeyId}:${key.keyPassword}`;
  let e = entries.get(id);
  if (!e) {
    const entry: Entry = { refs: 0, status: IDLE, listeners: new Set(), close: () => undefined };
    const set = (status: AccountStatus) => {
      const was = entry.status.state === 'connected';
      const is = status.state === 'connected';
      if (was !== is) reportAccountStream(key.apiKeyId, is);
      // Dropped: the account is read once now (what the gap missed), which also starts its polling again.
      if (was && !is) void client.invalidateQueries({ queryKey: tradeQueryKey.all(key.apiKeyId) });
      entry.status = status;
      for (const l of entry.listeners) l();
    };
    const stream = openTradeStream(
      key,
      {
        onMessage: (m) => {
          if (m.type === 'status') set({ state: m.state, ...(m.reason ? { reason: m.reason } : {}) });
          else if (m.type === 'error' && m.apiKeyId) set({ state: 'error', reason: m.message });
          applyStreamMessage(client, key.apiKeyId, m);
        },
        onSocket: (state, reason) => {
          if (state !== 'connected') set({ state, ...(reason ? { reason } : {}) });
        },
      },
      options,
    );
    entry.close = () => {
      stream.close();
      if (entry.status.state === 'connected') reportAccountStream(key.apiKeyId, false);
      entry.status = IDLE;
    };
    entries.set(id, entry);
    e = entry;
  }
  const entry = e;
  entry.refs++;
  entry.listeners.add(onChange);
  return () => {
    entry.listeners.delete(onChange);
    if (--entry.refs === 0) {
      entry.close();
      entries.delete(id);
    }
  };
}

export function accountStatus(key: TradeKey | null): AccountStatus | null {
  if (!key) return null;
  return entries.get(`${key.apiKeyId}:${key.keyPassword}`)?.status ?? IDLE;
}
