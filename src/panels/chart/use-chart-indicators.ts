import { useCallback, useEffect, useRef } from 'react';
import type { ChartEngine } from '../../engine';
import { toEngineIndicators, type ChartIndicator } from '../../state/chart-indicators';

/** "64321.5", Bollinger "64321.5 64400.2 64242.8"; "–" before an indicator has enough bars. */
export function formatIndicatorValues(values: readonly number[], precision: number): string {
  return values.map((v) => (Number.isFinite(v) ? v.toFixed(precision) : '–')).join(' ');
}

/**
 * Pushes the chart's indicators into the engine and keeps the legend's values current: the bar
 * under the crosshair while the pointer is over the chart, else the last bar. Values change with
 * every tick and pointer move, so they are written straight into the legend's elements
 * (`bindValue`), never through React state; call `refresh` when the candles changed (a tick, a page).
 */
export function useChartIndicators(engine: ChartEngine | null, indicators: readonly ChartIndicator[], precision: number) {
  const elements = useRef(new Map<string, HTMLElement>());
  const crosshairIndex = useRef<number | undefined>(undefined);
  const precisionRef = useRef(precision);
  precisionRef.current = precision;

  const refresh = useCallback(() => {
    if (!engine || elements.current.size === 0) return;
    for (const { id, values } of engine.getIndicatorValues(crosshairIndex.current)) {
      const el = elements.current.get(id);
      if (el) el.textContent = formatIndicatorValues(values, precisionRef.current);
    }
  }, [engine]);

  useEffect(() => {
    if (!engine) return;
    engine.setIndicators(toEngineIndicators(indicators));
    refresh();
  }, [engine, indicators, refresh]);

  useEffect(() => {
    if (!engine) return;
    return engine.on('crosshair', (info) => {
      crosshairIndex.current = info?.index;
      refresh();
    });
  }, [engine, refresh]);

  useEffect(refresh, [precision, refresh]);

  const bindValue = useCallback(
    (id: string) => (el: HTMLElement | null) => {
      if (!el) {
        elements.current.delete(id);
        return;
      }
      elements.current.set(id, el);
      refresh();
    },
    [refresh],
  );

  return { refresh, bindValue };
}
