import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { alertsChanged, listenForAlertChanges, putAlertInCache } from '../../api/alerts/alerts-cache';
import { useAlerts } from '../../api/alerts/list-alerts';
import { triggerAlert } from '../../api/alerts/trigger-alert';
import { useConfig } from '../../api/config/get-config';
import { userSettings } from '../../state/user-settings';
import { toastError } from '../../ui/toast';
import { AlertMonitor } from './alert-monitor';
import { publishPriceFeed } from './live-prices';
import { notifyAlertTriggered } from './notify-triggered';
import { adapterPriceStreams, marketKey, PriceFeed } from './price-feed';

/**
 * Runs the alert monitor for this workstation window: a price feed over the market adapters (on
 * the user's network; rebuilt when `useTestnet` changes), the monitor fed with the alert list, and
 * the other tabs' changes refetched. Mounted once per window by the workstation's services slot,
 * so alerts fire whichever panels are open.
 */
export function useAlertMonitor(): void {
  const queryClient = useQueryClient();
  const { data: config } = useConfig();
  const { useTestnet } = useSnapshot(userSettings);
  const { data: alerts } = useAlerts();
  const [feed, setFeed] = useState<PriceFeed | null>(null);
  const monitorRef = useRef<AlertMonitor | null>(null);

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
    setFeed(created);
    publishPriceFeed(created);
    return () => {
      publishPriceFeed(null);
      created.dispose();
    };
  }, [config, useTestnet]);

  useEffect(() => {
    if (!feed) return;
    const monitor = new AlertMonitor({
      watch: (market, listener) => feed.watch(market, listener),
      trigger: triggerAlert,
      onTriggered: (alert) => {
        putAlertInCache(queryClient, alert);
        void alertsChanged(queryClient);
        // Read at fire time: the sound picked a second ago is the one that plays.
        notifyAlertTriggered(alert, userSettings.alertSound);
      },
      onStale: () => void alertsChanged(queryClient),
    });
    monitorRef.current = monitor;
    return () => {
      monitor.dispose();
      if (monitorRef.current === monitor) monitorRef.current = null;
    };
  }, [feed, queryClient]);

  // Declared after the monitor's effect, so a new monitor gets the list in the same commit.
  useEffect(() => {
    monitorRef.current?.update(alerts ?? []);
  }, [alerts, feed]);

  useEffect(() => listenForAlertChanges(queryClient), [queryClient]);
}

/** The workstation service component: renders nothing, runs the monitor. */
export function AlertMonitorService(): null {
  useAlertMonitor();
  return null;
}
