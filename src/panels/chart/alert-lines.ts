import type { Alert } from '../../api/contracts/alerts';
import type { PriceLine } from '../../engine';

/**
 * Alerts on the chart: every active alert of the chart's pair is a draggable line at its trigger
 * price (all charts of that pair show it); dropping the line moves the trigger (`PATCH /v1/alerts/{id}`).
 * An alert tied to a drawing (`drawing-alerts.ts`) follows the drawing instead and is not dragged itself.
 */

const PREFIX = 'alert:';

/** Price lines of the active alerts given (already filtered to the chart's exchange + symbol). */
export function alertLines(alerts: readonly Alert[]): PriceLine[] {
  return alerts
    .filter((a) => a.status === 'active')
    .map((a) => ({
      id: `${PREFIX}${a.id}`,
      kind: 'alert' as const,
      price: a.triggerPrice,
      // An alert tied to a drawing moves with the drawing (drag that instead).
      draggable: !a.drawingId,
      ...(a.note ? { label: `Alert · ${a.note}` } : a.drawingId ? { label: 'Alert · on drawing' } : {}),
    }));
}

/** The alert id behind a price line id, or null for other lines (orders, positions). */
export function alertIdOfLine(lineId: string): string | null {
  return lineId.startsWith(PREFIX) ? lineId.slice(PREFIX.length) : null;
}

export interface AlertMove {
  triggerPrice: number;
  initialPrice: number;
  /** The line was dropped across (or onto) the live price: the alert fires at once. */
  crossed: boolean;
}

/**
 * The prices to send when an alert line is dropped at `dropped` while the market trades at `live`.
 *
 * An alert waits for a rise (set below its trigger) or a fall. A line dropped on the same side of
 * the market just moves: `initialPrice` = the live price now, as the alerts contract asks, which
 * keeps the direction. A line dragged **across** the market price has swept over it — the price has
 * reached the trigger from the side the alert was waiting on — so the alert keeps its direction and
 * fires: `initialPrice` must then lie on the waiting side of the new trigger, and the live price is
 * on the other. The alert's own initial price is used when it lies there, else the live price
 * mirrored across the trigger (at least one tick away). The alert monitor then fires it on the next
 * price, with the toast, sound and triggered list as for any alert.
 *
 * Null when nothing changes (dropped where it was) or no price is known to judge by.
 */
export function moveAlertPrices(
  alert: Pick<Alert, 'initialPrice' | 'triggerPrice'>,
  dropped: number,
  live: number | undefined,
  tickSize: number,
): AlertMove | null {
  if (!(dropped > 0) || dropped === alert.triggerPrice) return null;
  const tick = tickSize > 0 ? tickSize : dropped * 1e-6;
  if (live === undefined || !Number.isFinite(live)) {
    // No live price yet: keep the alert's direction from its own initial price.
    return alert.initialPrice !== dropped ? { triggerPrice: dropped, initialPrice: alert.initialPrice, crossed: false } : null;
  }
  const waitsForRise = alert.initialPrice < alert.triggerPrice;
  const waitsForFall = alert.initialPrice > alert.triggerPrice;
  const crossed = (waitsForRise && live >= dropped) || (waitsForFall && live <= dropped);
  if (!crossed) return live !== dropped ? { triggerPrice: dropped, initialPrice: live, crossed: false } : null;
  if (waitsForRise) {
    const below = alert.initialPrice < dropped ? alert.initialPrice : dropped - Math.max(live - dropped, tick);
    return { triggerPrice: dropped, initialPrice: below > 0 ? below : dropped / 2, crossed: true };
  }
  const above = alert.initialPrice > dropped ? alert.initialPrice : dropped + Math.max(dropped - live, tick);
  return { triggerPrice: dropped, initialPrice: above, crossed: true };
}
