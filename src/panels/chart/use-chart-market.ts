import { useEffect, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { dec, toNumber } from '../../api/contracts/decimal';
import type { ExchangeId } from '../../api/contracts/common';
import type { Instrument } from '../../api/contracts/exchanges';
import type { CandleInterval } from '../../api/contracts/market';
import { useInstrument } from '../../api/exchanges/get-exchange-info';
import { useFeatureFlagMap } from '../../api/feature-flags/get-feature-flag-map';
import type { ChartEngine } from '../../engine';
import type { ChartIndicator } from '../../state/chart-indicators';
import { chartLinks } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import type { Market } from './drawing-records';
import { useActiveChartInstrument } from './use-active-chart-instrument';

const NO_INDICATORS: readonly ChartIndicator[] = [];

/** What one chart shows: its market from `chartLinks` (the live copy of the node config) and the user's network. */
export interface ChartMarket {
  exchange: ExchangeId;
  symbol: string;
  interval: CandleInterval;
  useTestnet: boolean;
  /** `{ exchange, symbol }`, the same object while they stay the same. */
  market: Market;
  indicators: readonly ChartIndicator[];
}

export function useChartMarket(chartId: string): ChartMarket {
  const chart = useSnapshot(chartLinks).charts[chartId];
  const exchange = chart?.exchange ?? 'binance';
  const symbol = chart?.symbol ?? 'BTCUSDT';
  const interval = chart?.interval ?? '5m';
  const { useTestnet } = useSnapshot(userSettings);
  const market = useMemo(() => ({ exchange, symbol }), [exchange, symbol]);
  const indicators = chart?.indicators ?? NO_INDICATORS;
  return { exchange, symbol, interval, useTestnet, market, indicators };
}

/** The feature flags the chart panel follows. */
export function useChartFlags(): { drawingOn: boolean; fibOn: boolean; alertsOn: boolean } {
  const { data: flags } = useFeatureFlagMap();
  const drawingOn = flags?.FF_ENABLE_DRAWING_TOOL === true;
  const fibOn = drawingOn && flags?.FF_ENABLE_FIBONACCI_TOOL === true;
  const alertsOn = flags?.FF_ENABLE_ALERTS === true;
  return { drawingOn, fibOn, alertsOn };
}

/**
 * The chart pair's instrument from exchange-info, pushed into the engine and (for the active chart)
 * into the user settings. `tickSize` is a ref: the per-tick handlers read it without re-rendering.
 */
export function useChartInstrument(
  engine: ChartEngine | null,
  chartId: string,
  { exchange, symbol, useTestnet }: Pick<ChartMarket, 'exchange' | 'symbol' | 'useTestnet'>,
): { instrument: Instrument | undefined; tickSize: { readonly current: number }; precision: number } {
  const instrument = useInstrument(exchange, symbol, useTestnet);
  const tickSize = useRef(0);
  tickSize.current = instrument ? toNumber(dec(instrument.tickSize)) : 0;
  const precision = instrument?.precision ?? 2;
  useEffect(() => {
    // The engine draws with numbers (DESIGN §8): the tick converts here, at its edge.
    if (engine && instrument) engine.setInstrument({ tickSize: toNumber(dec(instrument.tickSize)), precision: instrument.precision });
  }, [engine, instrument]);
  useActiveChartInstrument(chartId, instrument);
  return { instrument, tickSize, precision };
}
