/** The prices an alert is judged by (SPEC §3 Alert: initialPrice, triggerPrice). */
export interface AlertPrices {
  /** The market price when the alert was set: tells which side the trigger is approached from. */
  initialPrice: number;
  triggerPrice: number;
}

/**
 * Whether a live price fires an alert. The alert fires when the price reaches the trigger coming
 * from the side of the initial price:
 * - initial < trigger (waiting for a rise): fires when price >= trigger;
 * - initial > trigger (waiting for a fall): fires when price <= trigger;
 * - initial == trigger: fires only when price == trigger.
 * Judging by the side of the initial price (not the previous tick) means a price that gapped past
 * the trigger between two updates still fires. A non-finite price or alert price never fires.
 */
export function isAlertTriggered(alert: AlertPrices, price: number): boolean {
  const { initialPrice, triggerPrice } = alert;
  if (!Number.isFinite(price) || !Number.isFinite(initialPrice) || !Number.isFinite(triggerPrice)) return false;
  if (initialPrice < triggerPrice) return price >= triggerPrice;
  if (initialPrice > triggerPrice) return price <= triggerPrice;
  return price === triggerPrice;
}

/** The alerts a live price fires, in list order. */
export function triggeredAlerts<T extends AlertPrices>(alerts: readonly T[], price: number): T[] {
  return alerts.filter((alert) => isAlertTriggered(alert, price));
}
