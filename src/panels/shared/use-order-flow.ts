import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useConfig } from '../../api/config/get-config';
import type { ExchangeId } from '../../api/contracts/common';
import type { Instrument } from '../../api/contracts/exchanges';
import { useInstrument } from '../../api/exchanges/get-exchange-info';
import { acquireOrderFlow, type OrderFlowFeed } from '../../api/market/order-flow';
import { userSettings } from '../../state/user-settings';

export interface PanelOrderFlow {
  /** Null until `/v1/config` is read (or when it names no endpoints for the exchange). */
  feed: OrderFlowFeed | null;
  exchange: ExchangeId;
  symbol: string;
  testnet: boolean;
  /** The server runs on the simulator (`/v1/config` `marketData: 'sim'`): the panels say "Simulated". */
  simulated: boolean;
  instrument: Instrument | undefined;
}

/**
 * The order flow of the market the trading panels trade — the active chart's exchange and pair on the
 * user's network (the workstation keeps `userSettings` in step with the active chart) — from the shared
 * feed registry: Order book, Trades tape and DOM ladder on one pair share one stream. Released on
 * unmount or when the market changes.
 */
export function useOrderFlow(): PanelOrderFlow {
  const { exchangeName: exchange, tradingPair: symbol, useTestnet: testnet, category } = useSnapshot(userSettings);
  const { data: config } = useConfig();
  const endpoints = config?.exchanges[exchange];
  const instrument = useInstrument(exchange, symbol, testnet);
  const tickSize = instrument?.tickSize;
  const [feed, setFeed] = useState<OrderFlowFeed | null>(null);
  const streamCategory = category === 'linear' || category === 'inverse' ? category : undefined;

  useEffect(() => {
    if (!endpoints) return;
    const handle = acquireOrderFlow({ exchange, symbol, testnet, category: streamCategory }, endpoints, { tickSize });
    setFeed(handle.feed);
    return () => {
      setFeed(null);
      handle.release();
    };
    // The tick size is handed over below without a new stream.
  }, [endpoints, exchange, symbol, testnet, streamCategory]);

  useEffect(() => {
    if (!endpoints || !tickSize) return;
    // Acquiring again with the tick size updates the shared feed's; this handle is let go at once.
    acquireOrderFlow({ exchange, symbol, testnet, category: streamCategory }, endpoints, { tickSize }).release();
  }, [endpoints, exchange, symbol, testnet, streamCategory, tickSize, feed]);

  return { feed, exchange, symbol, testnet, simulated: config?.marketData === 'sim', instrument };
}

/**
 * Calls `paint` once now and then at most once a frame while the feed changes (its `onChange` is
 * coalesced per animation frame), without rendering React: panels write into a fixed pool of rows.
 * `paint` is read through a ref, so a new function each render restarts nothing; `deps` repaint at once.
 */
export function useFeedPaint(feed: OrderFlowFeed | null, paint: (feed: OrderFlowFeed) => void, deps: readonly unknown[]): void {
  const ref = useRef(paint);
  ref.current = paint;
  useEffect(() => {
    if (!feed) return;
    ref.current(feed);
    return feed.onChange(() => ref.current(feed));
  }, [feed, ...deps]);
}
