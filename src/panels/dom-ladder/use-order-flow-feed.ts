import { useEffect, useState } from 'react';
import { useConfig } from '../../api/config/get-config';
import { acquireOrderFlow, orderFlowKeyId, type OrderFlowFeed, type OrderFlowKey } from '../../api/market/order-flow';

/**
 * The order flow of the ladder's exchange, pair and network: the one shared feed of that key (every
 * panel showing the pair reads the same stream), held while the panel shows it and released after.
 * It waits for the server's configuration (where the exchange's streams are: live, or the simulator's
 * `/sim/<exchange>`). `tickSize` is the pair's (exchange-info's, the
 * stored settings' until that list has loaded).
 */
export function useOrderFlowFeed(key: OrderFlowKey | null, tickSize: string): OrderFlowFeed | null {
  const { data: config } = useConfig();
  const endpoints = key ? config?.exchanges[key.exchange] : undefined;
  const [feed, setFeed] = useState<OrderFlowFeed | null>(null);
  const id = key ? orderFlowKeyId(key) : null;
  useEffect(() => {
    if (!key || !endpoints) {
      setFeed(null);
      return;
    }
    const held = acquireOrderFlow(key, endpoints, { tickSize });
    setFeed(held.feed);
    return () => {
      held.release();
      setFeed(null);
    };
    // The key's identity is its id: a new object for the same pair keeps the feed.
  }, [id, endpoints, tickSize]);
  return feed;
}
