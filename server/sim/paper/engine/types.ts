/**
 * The paper matching engine's public vocabulary. It knows no exchange: venues
 * (`server/sim/paper/<exchange>/`) translate their wire formats into these types and back
 * (STYLE pattern 10). Quantities, prices and money are decimal strings here; inside they are
 * integers (ticks, steps, 1e-18 units) — see decimal.ts and units.ts.
 */

export type Side = 'BUY' | 'SELL';
/** Conditional types carry a trigger; STOP_LIMIT / TAKE_PROFIT also a limit price. LIQUIDATION is engine-made. */
export type OrderType = 'MARKET' | 'LIMIT' | 'STOP_MARKET' | 'STOP_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET' | 'LIQUIDATION';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
/** DESIGN §3.1's statuses that the engine produces. UNTRIGGERED = a conditional order waiting for its trigger. */
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED' | 'UNTRIGGERED';
export type MarginMode = 'cross' | 'isolated';
export type Category = 'linear' | 'inverse';
/** `rise`: fires when a trade prints at or above the trigger; `fall`: at or below. */
export type TriggerDirection = 'rise' | 'fall';

/** Identifies one paper account: a simulator key on one exchange and network. */
export interface AccountKey {
  apiKey: string;
  exchange: string;
  network: 'MAINNET' | 'TESTNET';
}

export const accountId = (k: AccountKey): string => `${k.exchange}|${k.network}|${k.apiKey}`;

/** What the engine needs to know about an instrument (decimal strings, exactly as the exchange prints them). */
export interface InstrumentSpec {
  symbol: string;
  category: Category;
  /** Currency of margin, fees and PnL (USDT; BTC / XBT for inverse). */
  settle: string;
  tickSize: string;
  qtyStep: string;
  minQty: string;
  maxQty: string;
  /** Market-order cap (Binance MARKET_LOT_SIZE); defaults to maxQty. */
  maxMarketQty?: string;
  /** Linear: base coin per order unit. Inverse: quote (USD) per contract. */
  contractSize: string;
  maxLeverage: number;
  /** Smallest order value in the settle currency (linear only; reduce-only orders are exempt). */
  minNotional?: string;
}

/** One maintenance-margin tier (Binance leverage bracket, Bybit/OKX risk tier). Value in the settle currency. */
export interface Bracket {
  /** Position value up to which the tier applies; null = unbounded. */
  cap: string | null;
  maintenanceRate: string;
  /** Maintenance amount deducted (Binance `cum`): MM = value × rate − deduction. */
  deduction: string;
  maxLeverage: number;
}

/** What a venue decides where the exchanges differ (paper-economics.md's comparison table). */
export interface EnginePolicy {
  /** A post-only order that would take: refuse it (Binance -5022) or accept then cancel it (Bybit, OKX, BitMEX). */
  postOnly: 'reject' | 'cancel';
  /**
   * A reduce-only order larger than the position: refuse it, or accept and clip each fill to the
   * position (the remainder expires when the position is flat). With no position to reduce both refuse.
   */
  reduceOnly: 'reject' | 'clip';
  /** A conditional order whose trigger already holds: refuse it (Binance -2021) or trigger at once. */
  immediateTrigger: 'reject' | 'trigger';
  /** Client order ids must be unique among open orders (Binance) or among every retained order (Bybit, OKX). */
  clientIdScope: 'open' | 'all';
}

export interface EngineEconomics {
  makerRate: string;
  takerRate: string;
  /** Maintenance tiers per symbol; default one tier with `maintenanceRate` and the instrument's max leverage. */
  brackets?: (symbol: string) => Bracket[] | undefined;
  maintenanceRate: string;
}

/** One print of the simulated tape, in the instrument's integer units. */
export interface TapeTrade {
  id: number;
  time: number;
  /** Ticks. */
  price: bigint;
  /** Lot steps. */
  qty: bigint;
}

/** The price path the engine matches on (SimMarket's trades, adapted by the runtime). */
export interface Tape {
  /** Trades with after < time ≤ until, ascending by (time, id). */
  trades(symbol: string, after: number, until: number): TapeTrade[];
  /** The latest trade at or before `at`. */
  last(symbol: string, at: number): TapeTrade | null;
  /**
   * Optional fast path for long gaps (a restart after hours): low, high and last price (ticks) of
   * the prints in (after, until], or null if none. When nothing the account has could be touched in
   * that range, `advance` skips the prints and only moves the mark to `close`.
   */
  span?(symbol: string, after: number, until: number): { low: bigint; high: bigint; close: bigint } | null;
}

export interface PlaceRequest {
  symbol: string;
  side: Side;
  type: Exclude<OrderType, 'LIQUIDATION'>;
  /** Decimal string in the instrument's order unit; may be omitted when closePosition is set. */
  qty?: string;
  price?: string;
  trigger?: string;
  /** Default from type and side: STOP* buy → rise, sell → fall; TAKE_PROFIT* the opposite. */
  triggerDirection?: TriggerDirection;
  timeInForce?: TimeInForce;
  postOnly?: boolean;
  reduceOnly?: boolean;
  /** Conditional only: at trigger, close the whole position (Binance `closePosition=true`). */
  closePosition?: boolean;
  clientId?: string;
  /** Opaque venue data kept with the order (Binance workingType, Bybit orderLinkId style, …). */
  meta?: Record<string, string>;
  /** Override the venue's policy for this one order. */
  policy?: Partial<EnginePolicy>;
}

export type OrderRef = { id: number } | { clientId: string };

export interface AmendRequest {
  qty?: string;
  price?: string;
  trigger?: string;
  /** Override the venue's policy for this amend (Binance cancels a GTX order an amend would make take). */
  policy?: Partial<EnginePolicy>;
}

export type RefusalCode =
  | 'unknown-symbol'
  | 'invalid-order'
  | 'invalid-price'
  | 'invalid-price-tick'
  | 'invalid-trigger'
  | 'invalid-trigger-tick'
  | 'invalid-qty'
  | 'qty-below-min'
  | 'qty-above-max'
  | 'qty-step'
  | 'notional-below-min'
  | 'insufficient-margin'
  | 'reduce-only-rejected'
  | 'post-only-would-take'
  | 'would-immediately-trigger'
  | 'unknown-order'
  | 'order-closed'
  | 'order-not-amendable'
  | 'no-change'
  | 'duplicate-client-id'
  | 'no-market'
  | 'leverage-out-of-range'
  | 'position-limit-exceeded'
  | 'margin-mode-unchanged'
  | 'position-exists'
  | 'open-orders-exist';

/** Why the engine said no. Venues map `code` to their own error codes and texts. */
export interface Refusal {
  code: RefusalCode;
  message: string;
  /** The request field at fault, when there is one (qty, price, trigger, leverage, clientId). */
  field?: string;
  /** Numbers a venue may print (e.g. `minNotional`). */
  detail?: Record<string, string>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };
