import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import { useConfig } from '../../api/config/get-config';
import { createMarketAdapter, type MarketAdapter } from '../../api/market';
import type { ChartEngine } from '../../engine';
import { toastError } from '../../ui/toast';
import { ChartFeed, type FeedMarket, type FeedStatus } from './chart-feed';

export interface FeedListeners {
  onPrice?: (price: number) => void;
  onBars?: (bars: number) => void;
}

/**
 * Candles for the chart: one `ChartFeed` per engine, pointed at the chart's market whenever it
 * changes, paging history on the engine's `needHistory`. Failures toast the exchange's own message
 * (SPEC §8); `retry` loads the market again. `listeners` get the last price and bar count; they are read through a ref, so passing
 * new functions does not restart anything.
 */
export function useChartFeed(engine: ChartEngine | null, market: FeedMarket, listeners: FeedListeners): { status: FeedStatus; retry: () => void } {
  const { data: config } = useConfig();
  const [status, setStatus] = useState<FeedStatus>('idle');
  const feedRef = useRef<ChartFeed | null>(null);
  const listenersRef = useRef(listeners);
  listenersRef.current = listeners;

  useEffect(() => {
    if (!engine || !config) return;
    const adapters = new Map<ExchangeId, MarketAdapter>();
    const adapterFor = (exchange: ExchangeId): MarketAdapter | null => {
      const endpoints = config.exchanges[exchange];
      if (!endpoints) return null;
      let adapter = adapters.get(exchange);
      if (!adapter) {
        adapter = createMarketAdapter(exchange, endpoints);
        adapters.set(exchange, adapter);
      }
      return adapter;
    };
    const feed = new ChartFeed(engine, adapterFor, {
      onStatus: setStatus,
      onError: (error) => toastError(error.message),
      onPrice: (price) => listenersRef.current.onPrice?.(price),
      onBars: (bars) => listenersRef.current.onBars?.(bars),
    });
    feedRef.current = feed;
    const stopHistory = engine.on('needHistory', (beforeTime) => feed.loadHistory(beforeTime));
    return () => {
      stopHistory();
      feed.dispose();
      if (feedRef.current === feed) feedRef.current = null;
      setStatus('idle');
    };
  }, [engine, config]);

  const { exchange, symbol, interval, testnet } = market;
  // Declared after the feed's effect: a new feed is pointed at the market in the same commit.
  useEffect(() => {
    feedRef.current?.show({ exchange, symbol, interval, testnet });
  }, [engine, config, exchange, symbol, interval, testnet]);

  const retry = useCallback(() => feedRef.current?.reload(), []);
  return { status, retry };
}
