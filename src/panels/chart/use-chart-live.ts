import { useEffect, useRef, type RefObject } from 'react';
import type { ChartEngine } from '../../engine';
import type { FeedStatus } from './chart-feed';
import type { ChartMarket } from './use-chart-market';
import { useChartFeed } from './use-chart-feed';
import { useChartIndicators } from './use-chart-indicators';

/** Sets (or, with null, removes) a test-hook attribute straight on the element: per-tick values never re-render React. */
export function writeAttr(ref: RefObject<HTMLElement | null>, name: string, value: string | null): void {
  const el = ref.current;
  if (!el) return;
  if (value === null) el.removeAttribute(name);
  else el.setAttribute(name, value);
}

export interface ChartLive {
  /** The last price of the chart's market (undefined until the first candle). */
  livePrice: { readonly current: number | undefined };
  status: FeedStatus;
  retry: () => void;
  /** For the indicator legend's value elements. */
  bindValue: (id: string) => (el: HTMLElement | null) => void;
}

/**
 * The chart's candles and indicators: the feed of its market, the live price in a ref, and
 * `data-last-price` / `data-bars` on the chart body (reset when the market or network changes).
 */
export function useChartLive(
  engine: ChartEngine | null,
  bodyRef: RefObject<HTMLElement | null>,
  { exchange, symbol, interval, useTestnet, indicators }: Pick<ChartMarket, 'exchange' | 'symbol' | 'interval' | 'useTestnet' | 'indicators'>,
  precision: number,
): ChartLive {
  // Per-tick values live in refs and data attributes, not in React state.
  const livePrice = useRef<number | undefined>(undefined);
  useEffect(() => {
    livePrice.current = undefined;
    writeAttr(bodyRef, 'data-last-price', null);
    writeAttr(bodyRef, 'data-bars', '0');
  }, [exchange, symbol, interval, useTestnet]);
  const { refresh: refreshIndicators, bindValue } = useChartIndicators(engine, indicators, precision);
  const { status, retry } = useChartFeed(
    engine,
    { exchange, symbol, interval, testnet: useTestnet },
    {
      onPrice: (price) => {
        livePrice.current = price;
        writeAttr(bodyRef, 'data-last-price', String(price));
        refreshIndicators();
      },
      onBars: (bars) => {
        writeAttr(bodyRef, 'data-bars', String(bars));
        refreshIndicators();
      },
    },
  );
  return { livePrice, status, retry, bindValue };
}
