import { fixed, type FillRecord, type MarginMode, type OrderRecord, type PaperEngine, type Refusal, type Result } from './engine';
import type { SignedCall } from './signed';
import type { PaperStore } from './store';

/**
 * What the venues' routes do alike whatever the exchange: which orders are open, reading the
 * account's history, cancelling the order a request names, applying per-symbol settings.
 */

/** Open: resting, partly filled, or a conditional waiting for its trigger. */
export const isOpen = (o: OrderRecord): boolean => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' || o.status === 'UNTRIGGERED';

/** The account's store, after the account was brought to now (so the history holds everything up to it). */
export async function settledHistory({ runtime, account }: Pick<SignedCall, 'runtime' | 'account'>): Promise<{ store: PaperStore; dbId: string }> {
  await runtime.run(account, () => undefined);
  const store = await runtime.history();
  return { store, dbId: await runtime.dbId(account) };
}

/** The orders behind some fills, by engine id. */
export async function ordersOfFills(store: PaperStore, dbId: string, fills: FillRecord[]): Promise<Map<number, OrderRecord>> {
  const orders = await store.ordersByIds(dbId, [...new Set(fills.map((f) => f.orderId))]);
  return new Map(orders.map((o) => [o.id, o]));
}

/** Cancels the held order `pick` names (null: none); `pick` runs inside the account's run. */
export function cancelPicked({ runtime, engine, account }: Pick<SignedCall, 'runtime' | 'engine' | 'account'>, pick: (id: string) => OrderRecord | undefined): Promise<Result<OrderRecord> | null> {
  return runtime.run(account, (id, at) => {
    const o = pick(id);
    return o ? engine.cancel(id, { id: o.id }, at) : null;
  });
}

/** A symbol's margin mode, then its leverage, each only when it differs: the first refusal, or null. */
export function applySettings(engine: PaperEngine, id: string, symbol: string, at: number, want: { mode?: MarginMode; leverage?: number }): Refusal | null {
  if (want.mode !== undefined && engine.settings(id, symbol).marginMode !== want.mode) {
    const m = engine.setMarginMode(id, symbol, want.mode, at);
    if (!m.ok) return m.refusal;
  }
  if (want.leverage !== undefined && engine.settings(id, symbol).leverage !== want.leverage) {
    const l = engine.setLeverage(id, symbol, want.leverage, at);
    if (!l.ok) return l.refusal;
  }
  return null;
}

/** A decimal that is a whole number, as that number (the engine keeps whole leverages); null otherwise. */
export function wholeOf(decimal: string): number | null {
  const v = fixed(decimal);
  return v % 10n ** 18n === 0n ? Number(v / 10n ** 18n) : null;
}
