import { useCallback, useEffect, useRef } from 'react';
import { useCreateAlert } from '../../api/alerts/create-alert';
import { useMarketAlerts } from '../../api/alerts/list-alerts';
import { useUpdateAlert } from '../../api/alerts/update-alert';
import type { Alert } from '../../api/contracts/alerts';
import type { ChartEngine, PriceLine } from '../../engine';
import { toastError } from '../../ui/toast';
import { useNetwork } from '../shared/use-network';
import { alertIdOfLine, alertLines, moveAlertPrices } from './alert-lines';
import { alertsOfDrawing, alertsToFollow } from './drawing-alerts';
import type { Market } from './drawing-records';

const NO_LINES: readonly PriceLine[] = [];
const NO_ALERTS: readonly Alert[] = [];

export interface ChartAlerts {
  /**
   * Creates an alert at `price` (the live price is its initial price), tied to a drawing when
   * `drawingId` is given (it then follows the drawing). False when it cannot yet.
   */
  createAt: (price: number, drawingId?: string) => boolean;
  /** Alert lines on the chart. */
  lineCount: number;
}

/**
 * Alerts on the chart (FF_ENABLE_ALERTS): the pair's active alerts as draggable lines — on every
 * chart of the pair, since they all read the one cached alert list — and a dropped line moves its
 * trigger (optimistic PATCH; a refusal puts the line back and toasts). `livePrice` and `tickSize`
 * are refs: they change many times a second and must not re-render the panel.
 */
export function useChartAlerts(
  engine: ChartEngine | null,
  market: Market,
  enabled: boolean,
  livePrice: { readonly current: number | undefined },
  tickSize: { readonly current: number },
  extraLines: readonly PriceLine[] = NO_LINES,
): ChartAlerts {
  // The chart shows and sets alerts on its own network (the prices it draws).
  const network = useNetwork();
  const alerts = useMarketAlerts(market.exchange, market.symbol, network);
  const shown: readonly Alert[] = enabled ? alerts : NO_ALERTS;
  const alertsRef = useRef(shown);
  alertsRef.current = shown;
  const { mutate: update } = useUpdateAlert();
  const { mutate: create } = useCreateAlert();

  // The chart's app lines: its alerts and the traded key's orders and position (use-chart-trade-lines.tsx).
  const extraRef = useRef(extraLines);
  extraRef.current = extraLines;
  useEffect(() => engine?.setLines([...alertLines(shown), ...extraLines]), [engine, shown, extraLines]);

  useEffect(() => {
    if (!engine) return;
    return engine.on('lineDragged', ({ id, price }) => {
      const alertId = alertIdOfLine(id);
      const alert = alertId ? alertsRef.current.find((a) => a.id === alertId) : undefined;
      if (!alert) return;
      const move = moveAlertPrices(alert, price, livePrice.current, tickSize.current);
      if (!move) {
        // Nothing to send: the engine moved its copy of the line, put it back.
        engine.setLines([...alertLines(alertsRef.current), ...extraRef.current]);
        return;
      }
      update({ id: alert.id, triggerPrice: move.triggerPrice, initialPrice: move.initialPrice });
    });
  }, [engine, update, livePrice, tickSize]);

  // Alerts tied to a drawing follow it when it moves; a deleted drawing leaves its alerts where they are, untied.
  useEffect(() => {
    if (!engine) return;
    const offMoved = engine.on('drawingCommitted', ({ drawing, created }) => {
      if (created) return;
      for (const { alert, price } of alertsToFollow(alertsRef.current, drawing)) {
        const move = moveAlertPrices(alert, price, livePrice.current, tickSize.current);
        if (move) update({ id: alert.id, triggerPrice: move.triggerPrice, initialPrice: move.initialPrice });
      }
    });
    const offDeleted = engine.on('drawingDeleted', ({ id }) => {
      for (const alert of alertsOfDrawing(alertsRef.current, id)) update({ id: alert.id, drawingId: null });
    });
    return () => {
      offMoved();
      offDeleted();
    };
  }, [engine, update, livePrice, tickSize]);

  const { exchange, symbol } = market;
  const createAt = useCallback(
    (price: number, drawingId?: string): boolean => {
      const live = livePrice.current;
      if (!enabled) return false;
      if (live === undefined) {
        toastError(`No price for ${symbol} yet: try again in a moment`);
        return false;
      }
      if (!(price > 0)) return false;
      if (price === live) {
        toastError(`${symbol} trades at that price now: set the alert above or below it`);
        return false;
      }
      create({ exchange, network, symbol, initialPrice: live, triggerPrice: price, ...(drawingId ? { drawingId } : {}) });
      return true;
    },
    [enabled, exchange, network, symbol, create, livePrice],
  );

  return { createAt, lineCount: shown.filter((a) => a.status === 'active').length };
}
