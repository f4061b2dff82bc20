import type { MarginMode, OrderStatus, OrderType, Side, TimeInForce, TriggerDirection } from './types';

/**
 * The engine's state as exact, serialisable records: what the store persists and loads, and what
 * venues read. Every decimal here is exact (no rounding happened on the way out), so
 * `load(snapshot(account))` reproduces the account bit for bit.
 */

export interface OrderRecord {
  id: number;
  clientId: string;
  symbol: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  reduceOnly: boolean;
  closePosition: boolean;
  /** Order quantity (for closePosition orders: the position size taken at trigger, "0" before). */
  qty: string;
  filledQty: string;
  price: string | null;
  trigger: string | null;
  triggerDirection: TriggerDirection | null;
  status: OrderStatus;
  /** When a conditional order fired (null while waiting, and for plain orders). */
  triggeredAt: number | null;
  /**
   * The id of the order a fired trigger released. Binance and OKX show a triggered conditional as a
   * new order with its own id; Bybit and BitMEX keep one id — they ignore this.
   */
  releasedId: number | null;
  /** Σ fill price × fill qty (exact), so avgPrice = sumPriceQty / filledQty. */
  sumPriceQty: string;
  /** Fees charged so far (settle currency; negative = rebate). */
  fee: string;
  realisedPnl: string;
  /** Why the order ended when it did not fill: a refusal code, `canceled`, `liquidation`, `ioc`, `fok`, `reduce-only`. */
  reason: string | null;
  meta: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface FillRecord {
  id: number;
  orderId: number;
  symbol: string;
  side: Side;
  qty: string;
  price: string;
  /** Settle currency; negative = rebate. */
  fee: string;
  feeCurrency: string;
  realisedPnl: string;
  maker: boolean;
  /** Closed by the liquidation engine at the bankruptcy price (not a trade on the tape). */
  liquidation: boolean;
  time: number;
}

export interface PositionRecord {
  symbol: string;
  /** Signed size in the order unit: > 0 long, < 0 short. */
  size: string;
  /** Entry value in the settle currency (linear: Σ qty × price; inverse: Σ contracts ÷ price). */
  cost: string;
  /** Isolated wallet: the margin that backs an isolated position ("0" in cross). */
  isolatedMargin: string;
  /** Fees paid to open what is still open (for the break-even price). */
  openFees: string;
  /** Realised PnL accumulated on this symbol (Binance `cr`). */
  realisedPnl: string;
  updatedAt: number;
}

export interface BalanceRecord {
  currency: string;
  /** Wallet balance: deposits + realised PnL − fees. Isolated margins are part of it. */
  wallet: string;
}

export interface SettingRecord {
  symbol: string;
  leverage: number;
  marginMode: MarginMode;
}

export interface AccountSnapshot {
  /** Every trade with time ≤ asOf has been processed. */
  asOf: number;
  /** Next id for orders and fills (one sequence per account). */
  nextId: number;
  balances: BalanceRecord[];
  settings: SettingRecord[];
  positions: PositionRecord[];
  /** Open orders, plus recent closed ones (for duplicate client ids and quick lookups). */
  orders: OrderRecord[];
}

/** What one engine operation changed in one account: the store writes it in one transaction. */
export interface ChangeSet {
  asOf: number;
  nextId: number;
  orders: OrderRecord[];
  fills: FillRecord[];
  positions: PositionRecord[];
  balances: BalanceRecord[];
  settings: SettingRecord[];
}
