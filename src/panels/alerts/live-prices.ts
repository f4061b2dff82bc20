import { useCallback, useSyncExternalStore } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import type { PriceFeed } from './price-feed';

/**
 * The workstation window's price feed, published by the alert monitor (which runs while `/trade`
 * is open), so the Alerts panel reads live prices over the monitor's own streams instead of
 * opening its own: a pair with an alert is streamed once.
 */
let current: PriceFeed | null = null;
const listeners = new Set<() => void>();

export function publishPriceFeed(feed: PriceFeed | null): void {
  current = feed;
  for (const l of [...listeners]) l();
}

const subscribeFeed = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const currentFeed = () => current;

export function usePriceFeed(): PriceFeed | null {
  return useSyncExternalStore(subscribeFeed, currentFeed, currentFeed);
}

/** The live last price of a market (undefined until the first one arrives, or with no market). */
export function useLivePrice(exchange: ExchangeId | null, symbol: string | null): number | undefined {
  const feed = usePriceFeed();
  const subscribe = useCallback(
    (onChange: () => void) => (feed && exchange && symbol ? feed.watch({ exchange, symbol }, onChange) : () => undefined),
    [feed, exchange, symbol],
  );
  const read = () => (feed && exchange && symbol ? feed.last({ exchange, symbol })?.price : undefined);
  return useSyncExternalStore(subscribe, read, read);
}
