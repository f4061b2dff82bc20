import type { Alert, TriggerAlertResult } from '../../api/contracts/alerts';
import { httpStatus } from '../../api/errors';
import { isAlertTriggered } from '../../state/alerts';
import { marketKey, type MarketKey, type PriceListener, type PriceTick } from './price-feed';

/** Seconds in the bars the monitor watches (1-minute candles). */
const BAR_SECONDS = 60;
/** After a failed trigger call (network, 5xx) the alert is tried again no sooner than this. */
export const TRIGGER_RETRY_MS = 5_000;

export interface AlertMonitorDeps {
  /** Live prices of a market (a `PriceFeed`'s `watch`); returns the unwatch function. */
  watch: (market: MarketKey, listener: PriceListener) => () => void;
  /** `POST /v1/alerts/{id}/trigger`. */
  trigger: (alertId: string, price: number) => Promise<TriggerAlertResult>;
  /** This tab fired the alert (the server said so): play the sound, toast, notify. */
  onTriggered: (alert: Alert) => void;
  /** The server's copy differs from ours (triggered elsewhere, moved, deleted): refetch the list. */
  onStale: () => void;
  now?: () => number;
}

/** An alert as the monitor judged it: a moved or re-armed alert is a new version. */
const versionOf = (a: Alert) => `${a.id}|${a.initialPrice}|${a.triggerPrice}|${a.updatedAt}`;

interface Watched {
  alerts: Alert[];
  stop: () => void;
}

/**
 * Watches the live price of every market that has an active alert — one subscription per distinct
 * exchange + symbol, however many alerts or charts — and fires each alert when the price crosses
 * its trigger from the side of its initial price (`isAlertTriggered`). Firing is the server's
 * idempotent `trigger` call: only when it answers `triggered: true` does this tab notify, so with
 * several tabs open an alert rings once. A market is unwatched as soon as it has no active alert.
 *
 * No React: `use-alert-monitor.ts` feeds it the alert list and wires the callbacks.
 */
export class AlertMonitor {
  private readonly watched = new Map<string, Watched>();
  /** Alert versions with a trigger call in flight. */
  private readonly pending = new Set<string>();
  /** Alert versions already settled by the server (fired, or found stale): not judged again. */
  private readonly settled = new Set<string>();
  /** Alert id → time (ms) before which a failed trigger call is not retried. */
  private readonly retryAt = new Map<string, number>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly deps: AlertMonitorDeps) {
    this.now = deps.now ?? (() => Date.now());
  }

  /** Takes the current alert list (any statuses; only active ones are watched). */
  update(alerts: readonly Alert[]): void {
    if (this.disposed) return;
    const live = alerts.filter((a) => a.status === 'active');
    const versions = new Set(live.map(versionOf));
    // Forget settled versions the list no longer holds: the list has caught up with the server.
    for (const v of this.settled) if (!versions.has(v)) this.settled.delete(v);
    const ids = new Set(live.map((a) => a.id));
    for (const id of this.retryAt.keys()) if (!ids.has(id)) this.retryAt.delete(id);

    const byMarket = new Map<string, { market: MarketKey; alerts: Alert[] }>();
    for (const alert of live) {
      if (this.settled.has(versionOf(alert))) continue;
      const key = marketKey(alert);
      const group = byMarket.get(key) ?? { market: { exchange: alert.exchange, symbol: alert.symbol }, alerts: [] };
      group.alerts.push(alert);
      byMarket.set(key, group);
    }
    for (const [key, entry] of this.watched) {
      if (!byMarket.has(key)) this.unwatch(key, entry);
    }
    for (const [key, group] of byMarket) {
      const entry = this.watched.get(key);
      if (entry) {
        entry.alerts = group.alerts;
        continue;
      }
      const created: Watched = { alerts: group.alerts, stop: () => undefined };
      this.watched.set(key, created);
      created.stop = this.deps.watch(group.market, (tick) => this.onPrice(key, tick));
    }
  }

  /** The markets watched now (keys `exchange:symbol`). */
  watchedMarkets(): string[] {
    return [...this.watched.keys()];
  }

  dispose(): void {
    this.disposed = true;
    for (const [key, entry] of this.watched) this.unwatch(key, entry);
  }

  private unwatch(key: string, entry: Watched): void {
    this.watched.delete(key);
    entry.stop();
  }

  private onPrice(key: string, tick: PriceTick): void {
    const entry = this.watched.get(key);
    if (!entry || this.disposed) return;
    const now = this.now();
    for (const alert of entry.alerts) {
      const version = versionOf(alert);
      if (this.pending.has(version) || this.settled.has(version)) continue;
      if ((this.retryAt.get(alert.id) ?? 0) > now) continue;
      // A bar that closed before the alert was set (a back-fill after a reconnect) cannot fire it.
      if ((tick.time + BAR_SECONDS) * 1000 <= Date.parse(alert.updatedAt)) continue;
      if (isAlertTriggered(alert, tick.price)) void this.fire(key, alert, tick.price);
    }
  }

  private async fire(key: string, alert: Alert, price: number): Promise<void> {
    const version = versionOf(alert);
    this.pending.add(version);
    try {
      const result = await this.deps.trigger(alert.id, price);
      if (this.disposed) return;
      this.settle(key, version);
      if (result.triggered) this.deps.onTriggered(result.alert);
      else this.deps.onStale();
    } catch (error) {
      if (this.disposed) return;
      const status = httpStatus(error);
      if (status === 404 || status === 403) {
        // Deleted elsewhere, or alerts were turned off: nothing to retry.
        this.settle(key, version);
        this.deps.onStale();
      } else {
        this.retryAt.set(alert.id, this.now() + TRIGGER_RETRY_MS);
        console.warn(`Could not mark the ${alert.symbol} alert triggered; retrying`, error);
      }
    } finally {
      this.pending.delete(version);
    }
  }

  /** Stops judging this version; unwatches its market if nothing else there is active. */
  private settle(key: string, version: string): void {
    this.settled.add(version);
    const entry = this.watched.get(key);
    if (!entry) return;
    entry.alerts = entry.alerts.filter((a) => versionOf(a) !== version);
    if (entry.alerts.length === 0) this.unwatch(key, entry);
  }
}
