import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { listenForAlertChanges } from '../../api/alerts/alerts-cache';
import { useConfig } from '../../api/config/get-config';
import { userSettings } from '../../state/user-settings';
import { toastError } from '../../ui/toast';
import { publishPriceFeed } from './live-prices';
import { adapterPriceStreams, marketKey, PriceFeed } from './price-feed';

/**
 * The workstation's alert services: the live price feed the alert forms and rows read (distance to
 * the trigger, the price an alert is set or re-armed from), over the market adapters on the user's
 * network, and the other tabs' alert changes refetched. Alerts are fired by the server (issue 13:
 * `server/services/jobs/alert-watch.ts`), which the app hears as notifications (`use-alert-notifications.ts`).
 */
export function useAlertMonitor(): void {
  const queryClient = useQueryClient();
  const { data: config } = useConfig();
  const { useTestnet } = useSnapshot(userSettings);

  useEffect(() => {
    if (!config) return;
    // One toast per market and feed: a pair the exchange does not know would otherwise toast on
    // every reconnect (SPEC §8: market data errors toast the exchange's message).
    const toasted = new Set<string>();
    const created = new PriceFeed(adapterPriceStreams(config.exchanges, useTestnet), (market, error) => {
      if (toasted.has(marketKey(market))) return;
      toasted.add(marketKey(market));
      toastError(error.message);
    });
    publishPriceFeed(created);
    return () => {
      publishPriceFeed(null);
      created.dispose();
    };
  }, [config, useTestnet]);

  useEffect(() => listenForAlertChanges(queryClient), [queryClient]);
}

/** The workstation service component: renders nothing, runs the feed. */
export function AlertMonitorService(): null {
  useAlertMonitor();
  return null;
}
