import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { dec, toNumber } from '../../api/contracts/decimal';
import type { Instrument } from '../../api/contracts/exchanges';
import { chartLinks } from '../../state/chart-links';
import { setChartInterval, setTradingPair, userSettings } from '../../state/user-settings';

/**
 * The active chart's market is the trading market (the workstation keeps exchange and pair in step);
 * this adds what only the chart knows: the pair's instrument from exchange-info (tick size,
 * precisions, lot sizes, contract value, category, assets — SPEC §3 user settings) and the
 * interval, so order entry rounds the way the exchange does.
 */
export function useActiveChartInstrument(chartId: string, instrument: Instrument | undefined): void {
  const { activeChartId, charts } = useSnapshot(chartLinks);
  const chart = charts[chartId];
  const active = activeChartId === chartId;
  const interval = chart?.interval;

  useEffect(() => {
    if (!active || !interval || userSettings.interval === interval) return;
    setChartInterval(interval);
  }, [active, interval]);

  useEffect(() => {
    if (!active || !instrument || !chart) return;
    // Only for the pair the settings trade (the workstation sets it when the chart becomes active).
    if (userSettings.exchangeName !== chart.exchange || userSettings.tradingPair !== instrument.symbol) return;
    // The persisted settings keep SPEC §3's numbers (user_settings v6); the instrument's exact text is
    // what Order entry sizes with (it reads the instrument list first).
    const n = (text: string) => toNumber(dec(text));
    if (userSettings.tickSize === n(instrument.tickSize) && userSettings.stepSize === n(instrument.stepSize) && userSettings.category === instrument.category) return;
    setTradingPair(instrument.symbol, {
      tickSize: n(instrument.tickSize),
      precision: instrument.precision,
      stepSize: n(instrument.stepSize),
      quantityPrecision: instrument.quantityPrecision,
      minQty: n(instrument.minQty),
      maxQty: n(instrument.maxQty),
      contractValue: n(instrument.contractValue),
      category: instrument.category,
      baseAsset: instrument.base,
      quoteAsset: instrument.quote,
      settleCurrency: instrument.settle,
    });
  }, [active, instrument, chart]);
}
