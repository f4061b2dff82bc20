import { exactFixed, fixed, ONE } from './decimal';
import type { EngineEvent } from './events';
import type { AccountSnapshot, FillRecord, OrderRecord, PositionRecord, SettingRecord } from './records';
import type { MarginMode, OrderStatus, OrderType, Side, TimeInForce, TriggerDirection } from './types';
import type { Units } from './units';

/** An order in integer units (ticks, steps, fixed money). */
export interface OrderState {
  id: number;
  clientId: string;
  symbol: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  reduceOnly: boolean;
  closePosition: boolean;
  qty: bigint;
  filled: bigint;
  price: bigint | null;
  trigger: bigint | null;
  triggerDirection: TriggerDirection | null;
  status: OrderStatus;
  triggeredAt: number | null;
  releasedId: number | null;
  /** Σ ticks × steps of the fills. */
  sumPriceQty: bigint;
  fee: bigint;
  realised: bigint;
  reason: string | null;
  meta: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface PositionState {
  symbol: string;
  /** Signed steps. */
  size: bigint;
  /** Fixed entry value (always ≥ 0). */
  cost: bigint;
  isolatedMargin: bigint;
  openFees: bigint;
  realised: bigint;
  updatedAt: number;
}

export interface SymbolSettings {
  leverage: number;
  marginMode: MarginMode;
}

const FINAL: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED']);
export const isOpen = (o: OrderState): boolean => !FINAL.has(o.status);
export const isWaiting = (o: OrderState): boolean => o.status === 'UNTRIGGERED';
export const isConditional = (t: OrderType): boolean => t === 'STOP_MARKET' || t === 'STOP_LIMIT' || t === 'TAKE_PROFIT' || t === 'TAKE_PROFIT_MARKET';
export const isMarketType = (t: OrderType): boolean => t === 'MARKET' || t === 'STOP_MARKET' || t === 'TAKE_PROFIT_MARKET' || t === 'LIQUIDATION';
export const sideSign = (s: Side): 1n | -1n => (s === 'BUY' ? 1n : -1n);

/** Closed orders kept in memory per account (duplicate client ids, quick reads); the store has them all. */
export const RETAINED_CLOSED = 500;

/** One paper account in memory, with a journal of what changed since the store last took it. */
export class AccountState {
  asOf: number;
  nextId: number;
  readonly wallets = new Map<string, bigint>();
  readonly settings = new Map<string, SymbolSettings>();
  readonly positions = new Map<string, PositionState>();
  readonly orders = new Map<number, OrderState>();
  /** Last trade price per symbol (the mark) — not persisted: recomputed from the tape at load. */
  readonly marks = new Map<string, bigint>();
  // journal
  readonly dirtyOrders = new Set<number>();
  readonly dirtyPositions = new Set<string>();
  readonly dirtyBalances = new Set<string>();
  readonly dirtySettings = new Set<string>();
  fills: FillRecord[] = [];
  events: EngineEvent[] = [];
  headerDirty = false;

  constructor(
    readonly id: string,
    snapshot: AccountSnapshot,
    units: (symbol: string) => Units | undefined,
  ) {
    this.asOf = snapshot.asOf;
    this.nextId = snapshot.nextId;
    for (const b of snapshot.balances) this.wallets.set(b.currency, fixed(b.wallet));
    for (const s of snapshot.settings) this.settings.set(s.symbol, { leverage: s.leverage, marginMode: s.marginMode });
    for (const p of snapshot.positions) {
      const u = units(p.symbol);
      if (u) this.positions.set(p.symbol, positionFromRecord(p, u));
    }
    for (const o of snapshot.orders) {
      const u = units(o.symbol);
      if (u) this.orders.set(o.id, orderFromRecord(o, u));
    }
  }

  takeId(): number {
    this.headerDirty = true;
    return this.nextId++;
  }

  touchOrder(o: OrderState, at: number): void {
    o.updatedAt = at;
    this.dirtyOrders.add(o.id);
  }

  position(symbol: string, at: number): PositionState {
    let p = this.positions.get(symbol);
    if (!p) {
      p = { symbol, size: 0n, cost: 0n, isolatedMargin: 0n, openFees: 0n, realised: 0n, updatedAt: at };
      this.positions.set(symbol, p);
    }
    return p;
  }

  wallet(currency: string): bigint {
    return this.wallets.get(currency) ?? 0n;
  }

  addWallet(currency: string, delta: bigint): void {
    this.wallets.set(currency, this.wallet(currency) + delta);
    this.dirtyBalances.add(currency);
  }

  openOrders(symbol?: string): OrderState[] {
    const out: OrderState[] = [];
    for (const o of this.orders.values()) if (isOpen(o) && (symbol === undefined || o.symbol === symbol)) out.push(o);
    return out.sort((a, b) => a.id - b.id);
  }

  /** Drops the oldest closed orders beyond the retention window (they stay in the store). */
  prune(): void {
    const closed = [...this.orders.values()].filter((o) => !isOpen(o) && !this.dirtyOrders.has(o.id));
    if (closed.length <= RETAINED_CLOSED) return;
    closed.sort((a, b) => a.updatedAt - b.updatedAt || a.id - b.id);
    for (const o of closed.slice(0, closed.length - RETAINED_CLOSED)) this.orders.delete(o.id);
  }
}

export function orderToRecord(o: OrderState, u: Units): OrderRecord {
  return {
    id: o.id,
    clientId: o.clientId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    postOnly: o.postOnly,
    reduceOnly: o.reduceOnly,
    closePosition: o.closePosition,
    qty: u.qtyOf(o.qty),
    filledQty: u.qtyOf(o.filled),
    price: o.price === null ? null : u.priceOf(o.price),
    trigger: o.trigger === null ? null : u.priceOf(o.trigger),
    triggerDirection: o.triggerDirection,
    status: o.status,
    triggeredAt: o.triggeredAt,
    releasedId: o.releasedId,
    sumPriceQty: exactFixed((o.sumPriceQty * u.tick * u.step) / ONE),
    fee: exactFixed(o.fee),
    realisedPnl: exactFixed(o.realised),
    reason: o.reason,
    meta: { ...o.meta },
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function orderFromRecord(r: OrderRecord, u: Units): OrderState {
  const steps = (s: string) => fixed(s) / u.step;
  const ticks = (s: string | null) => (s === null ? null : fixed(s) / u.tick);
  return {
    ...r,
    meta: { ...r.meta },
    qty: steps(r.qty),
    filled: steps(r.filledQty),
    price: ticks(r.price),
    trigger: ticks(r.trigger),
    sumPriceQty: (fixed(r.sumPriceQty) * ONE) / (u.tick * u.step),
    fee: fixed(r.fee),
    realised: fixed(r.realisedPnl),
  };
}

export function positionToRecord(p: PositionState, u: Units): PositionRecord {
  return {
    symbol: p.symbol,
    size: u.qtyOf(p.size),
    cost: exactFixed(p.cost),
    isolatedMargin: exactFixed(p.isolatedMargin),
    openFees: exactFixed(p.openFees),
    realisedPnl: exactFixed(p.realised),
    updatedAt: p.updatedAt,
  };
}

export function positionFromRecord(r: PositionRecord, u: Units): PositionState {
  return {
    symbol: r.symbol,
    size: fixed(r.size) / u.step,
    cost: fixed(r.cost),
    isolatedMargin: fixed(r.isolatedMargin),
    openFees: fixed(r.openFees),
    realised: fixed(r.realisedPnl),
    updatedAt: r.updatedAt,
  };
}

export const settingToRecord = (symbol: string, s: SymbolSettings): SettingRecord => ({ symbol, leverage: s.leverage, marginMode: s.marginMode });
