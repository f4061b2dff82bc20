import type { FillRecord, OrderRecord } from './records';
import type { MarginMode } from './types';

/** What happened to an order: venues map it to their execution types (Binance `x`, Bybit `execType`…). */
export type OrderExec = 'new' | 'fill' | 'canceled' | 'expired' | 'rejected' | 'triggered' | 'amended';
export type AccountReason = 'order' | 'liquidation' | 'leverage' | 'margin-mode' | 'reset';

/** A currency's balance with everything derived from it, formatted (8 decimals unless configured). */
export interface BalanceView {
  currency: string;
  /** Deposits + realised PnL − fees (includes isolated margins). */
  wallet: string;
  /** Wallet minus isolated margins: what backs cross positions. */
  crossWallet: string;
  unrealisedPnl: string;
  crossUnrealisedPnl: string;
  /** Wallet + unrealised PnL. */
  marginBalance: string;
  /** Initial margin of positions (cross: entry value ÷ leverage; isolated: the isolated wallets). */
  positionMargin: string;
  /** Initial margin reserved by resting orders that would grow a position. */
  orderMargin: string;
  maintMargin: string;
  /** What a new order may use: cross wallet + cross unrealised − cross position margin − order margin. */
  available: string;
}

export interface PositionView {
  symbol: string;
  currency: string;
  side: 'LONG' | 'SHORT' | 'FLAT';
  /** Signed, in the order unit (contracts for inverse). */
  size: string;
  /** Base-coin quantity (linear) or USD amount (inverse) behind `size`, unsigned. */
  amount: string;
  entryPrice: string;
  breakEvenPrice: string;
  /** The mark is the tape's last trade price (no separate index/fair price in the simulator). */
  markPrice: string;
  /** Signed value at the mark in the settle currency (negative for shorts). */
  notional: string;
  unrealisedPnl: string;
  realisedPnl: string;
  liquidationPrice: string | null;
  bankruptcyPrice: string | null;
  leverage: number;
  marginMode: MarginMode;
  isolatedMargin: string;
  initialMargin: string;
  maintMargin: string;
  maintenanceRate: string;
  updatedAt: number;
}

export type EngineEvent =
  | { type: 'order'; account: string; time: number; exec: OrderExec; order: OrderRecord; fill?: FillRecord }
  | { type: 'account'; account: string; time: number; reason: AccountReason; balances: BalanceView[]; positions: PositionView[] };

export type EngineListener = (event: EngineEvent) => void;
