import { createHash } from 'node:crypto';
import {
  accountId,
  decimalsOf,
  fixed,
  formatFixed,
  trimZeros,
  type AccountKey,
  type BalanceView,
  type FillRecord,
  type InstrumentSpec,
  type OrderRecord,
  type PositionView,
} from '../engine';
import { isOpen } from '../queries';
import { BYBIT_MAKER_RATE, BYBIT_STARTING_BALANCES, BYBIT_TAKER_RATE, bybitTiers } from './economics';

/**
 * Engine records → Bybit v5 JSON, field for field and in the order of the fixtures
 * (tests/fixtures/exchanges/bybit) or, where there is none, of the documented examples
 * (bybit-exchange/docs @072c197). Everything is a string except the documented integers and
 * booleans; money is printed as the shortest exact decimal (8 ledger decimals at most).
 */

const ONE = 10n ** 18n;
const CONDITIONAL = new Set(['STOP_MARKET', 'STOP_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET']);
export const isConditional = (o: OrderRecord): boolean => CONDITIONAL.has(o.type);

// ---- ids ----

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

/** A UUID-shaped id (Bybit's derivatives order and execution ids are UUIDs) that carries the engine's number. */
function uuidOf(kind: string, account: AccountKey, n: number): string {
  const h = digest(`${kind}|${accountId(account)}|${n}`);
  const variant = '89ab'[parseInt(h[16], 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${n.toString(16).padStart(12, '0')}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-([0-9a-f]{12})$/;

export const bybitOrderId = (account: AccountKey, id: number): string => uuidOf('order', account, id);
export const bybitExecId = (account: AccountKey, id: number): string => uuidOf('exec', account, id);

/** The engine id behind an orderId of this account, or null (another account's or not one of ours). */
export function engineOrderId(account: AccountKey, orderId: string): number | null {
  const m = UUID.exec(orderId);
  if (!m) return null;
  const n = parseInt(m[1], 16);
  return Number.isSafeInteger(n) && bybitOrderId(account, n) === orderId ? n : null;
}

// ---- numbers ----

const tickDecimals = (spec: InstrumentSpec) => decimalsOf(spec.tickSize);
export const priceOf = (spec: InstrumentSpec, s: string | null) => formatFixed(s === null ? 0n : fixed(s), tickDecimals(spec));
export const qtyOf = (spec: InstrumentSpec, s: string) => formatFixed(fixed(s), decimalsOf(spec.qtyStep));
/** Money and derived prices: the shortest exact decimal at 8 decimals ("0.358635", "0"). */
export const amount = (v: bigint) => trimZeros(formatFixed(v, 8));
export const money = (s: string) => amount(fixed(s));

/** Value of `qty` at `price` in the settle currency: qty × price (linear) or qty ÷ price (inverse, coin). */
export function valueOf(spec: InstrumentSpec, qty: bigint, price: bigint): bigint {
  if (qty === 0n || price <= 0n) return 0n;
  const contracts = (qty * fixed(spec.contractSize)) / ONE;
  return spec.category === 'linear' ? (contracts * price) / ONE : (contracts * ONE) / price;
}

// ---- orders ----

const STATUS: Record<OrderRecord['status'], string> = {
  NEW: 'New',
  PARTIALLY_FILLED: 'PartiallyFilled',
  FILLED: 'Filled',
  CANCELED: 'Cancelled',
  EXPIRED: 'Cancelled',
  // A conditional order that fired and could not be placed (no margin): ccxt's map says "Rejected".
  REJECTED: 'Rejected',
  UNTRIGGERED: 'Untriggered',
};

/** Bybit's orderStatus: a conditional order ended before it fired is Deactivated (UTA). */
export function orderStatus(o: OrderRecord): string {
  if (isConditional(o) && o.triggeredAt === null && (o.status === 'CANCELED' || o.status === 'EXPIRED')) return 'Deactivated';
  return STATUS[o.status];
}

export function cancelType(o: OrderRecord): string {
  switch (o.reason) {
    case 'canceled':
      return 'CancelByUser';
    case 'reduce-only':
      return 'CancelByReduceOnly';
    case 'liquidation':
      return 'CancelAllBeforeLiq';
    default:
      return 'UNKNOWN';
  }
}

export function rejectReason(o: OrderRecord): string {
  switch (o.reason) {
    case 'post-only-would-take':
      return 'EC_PostOnlyWillTakeLiquidity';
    case 'fok':
      return 'EC_CancelForNoFullFill';
    case 'ioc':
      return fixed(o.filledQty) === 0n ? 'EC_NoImmediateQtyToFill' : 'EC_NoError';
    case 'insufficient-margin':
      return 'EC_Others';
    default:
      return 'EC_NoError';
  }
}

export const orderTypeOf = (o: OrderRecord) => (o.type === 'LIMIT' || o.type === 'STOP_LIMIT' || o.type === 'TAKE_PROFIT' ? 'Limit' : 'Market');

export function createTypeOf(o: OrderRecord): string {
  if (o.type === 'LIQUIDATION') return 'CreateByTakeOver_PassThrough';
  if (o.meta.tpsl === 'Full') return o.meta.stopOrderType === 'TakeProfit' ? 'CreateByTakeProfit' : 'CreateByStopLoss';
  if (isConditional(o)) return 'CreateByStopOrder';
  return 'CreateByUser';
}

function avgPriceOf(o: OrderRecord): string {
  const filled = fixed(o.filledQty);
  return filled === 0n ? '' : amount((fixed(o.sumPriceQty) * ONE) / filled);
}

/** Σ executed value: linear Σ price × qty (exact); inverse qty ÷ average price (exact for one fill). */
function cumExecValue(spec: InstrumentSpec, o: OrderRecord): bigint {
  const filled = fixed(o.filledQty);
  if (filled === 0n) return 0n;
  if (spec.category === 'linear') return (fixed(o.sumPriceQty) * fixed(spec.contractSize)) / ONE;
  return valueOf(spec, filled, (fixed(o.sumPriceQty) * ONE) / filled);
}

/** Every field Bybit may print for an order; the endpoints pick their own subset and order. */
export function orderFields(spec: InstrumentSpec, account: AccountKey, o: OrderRecord): Record<string, unknown> {
  const leaves = isOpen(o) ? fixed(o.qty) - fixed(o.filledQty) : 0n;
  const limitPrice = o.price === null ? 0n : fixed(o.price);
  const conditional = isConditional(o);
  const zeroPrice = formatFixed(0n, tickDecimals(spec));
  const fee = fixed(o.fee);
  const realised = fixed(o.realisedPnl);
  return {
    category: spec.category,
    orderId: bybitOrderId(account, o.id),
    orderLinkId: o.meta.orderLinkId ?? '',
    blockTradeId: '',
    symbol: o.symbol,
    price: priceOf(spec, o.price),
    qty: qtyOf(spec, o.qty),
    side: o.side === 'BUY' ? 'Buy' : 'Sell',
    isLeverage: '',
    positionIdx: 0,
    orderStatus: orderStatus(o),
    createType: createTypeOf(o),
    cancelType: cancelType(o),
    rejectReason: rejectReason(o),
    avgPrice: avgPriceOf(o),
    leavesQty: formatFixed(leaves, decimalsOf(spec.qtyStep)),
    leavesValue: amount(valueOf(spec, leaves, limitPrice)),
    cumExecQty: qtyOf(spec, o.filledQty),
    cumExecValue: amount(cumExecValue(spec, o)),
    cumExecFee: amount(fee),
    closedPnl: realised === 0n ? '0' : amount(realised - fee),
    timeInForce: o.postOnly ? 'PostOnly' : orderTypeOf(o) === 'Market' ? 'IOC' : o.timeInForce,
    orderType: orderTypeOf(o),
    stopOrderType: conditional ? (o.meta.stopOrderType ?? 'Stop') : 'UNKNOWN',
    orderIv: '',
    triggerPrice: conditional ? priceOf(spec, o.trigger) : zeroPrice,
    takeProfit: zeroPrice,
    stopLoss: zeroPrice,
    tpTriggerBy: 'UNKNOWN',
    slTriggerBy: 'UNKNOWN',
    triggerDirection: o.triggerDirection === 'rise' ? 1 : o.triggerDirection === 'fall' ? 2 : 0,
    triggerBy: conditional ? (o.meta.triggerBy ?? 'LastPrice') : 'UNKNOWN',
    lastPriceOnCreated: o.meta.lastPriceOnCreated ?? '',
    reduceOnly: o.reduceOnly,
    closeOnTrigger: o.closePosition || o.meta.closeOnTrigger === 'true',
    placeType: '',
    smpType: 'None',
    smpGroup: 0,
    smpOrderId: '',
    tpslMode: o.meta.tpsl ?? '',
    tpLimitPrice: '',
    slLimitPrice: '',
    slippageToleranceType: 'UNKNOWN',
    slippageTolerance: '',
    createdTime: String(o.createdAt),
    updatedTime: String(o.updatedAt),
    extraFees: '',
    feeCurrency: '',
    cumFeeDetail: { [spec.settle]: amount(fee) },
    rpiTakerAccess: false,
    rpiMatchedQty: '0',
  };
}

const pick = (all: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, all[k]]));

// Key orders: fixture open-orders.response.doc.json (realtime), docs order-list.mdx (history), fixture ws-private-order.doc.json (stream).
const REALTIME_KEYS = ['orderId', 'orderLinkId', 'blockTradeId', 'symbol', 'price', 'qty', 'side', 'isLeverage', 'positionIdx', 'orderStatus', 'cancelType', 'rejectReason', 'avgPrice', 'leavesQty', 'leavesValue', 'cumExecQty', 'cumExecValue', 'cumExecFee', 'timeInForce', 'orderType', 'stopOrderType', 'orderIv', 'triggerPrice', 'takeProfit', 'stopLoss', 'tpTriggerBy', 'slTriggerBy', 'triggerDirection', 'triggerBy', 'lastPriceOnCreated', 'reduceOnly', 'closeOnTrigger', 'smpType', 'smpGroup', 'smpOrderId', 'tpslMode', 'tpLimitPrice', 'slLimitPrice', 'placeType', 'createdTime', 'updatedTime', 'cumFeeDetail'] as const;
const HISTORY_KEYS = ['orderId', 'orderLinkId', 'blockTradeId', 'symbol', 'price', 'qty', 'side', 'isLeverage', 'positionIdx', 'orderStatus', 'cancelType', 'rejectReason', 'avgPrice', 'leavesQty', 'leavesValue', 'cumExecQty', 'cumExecValue', 'cumExecFee', 'timeInForce', 'orderType', 'stopOrderType', 'orderIv', 'triggerPrice', 'takeProfit', 'stopLoss', 'tpTriggerBy', 'slTriggerBy', 'triggerDirection', 'triggerBy', 'lastPriceOnCreated', 'reduceOnly', 'closeOnTrigger', 'smpType', 'smpGroup', 'smpOrderId', 'tpslMode', 'tpLimitPrice', 'slLimitPrice', 'placeType', 'slippageToleranceType', 'slippageTolerance', 'createdTime', 'updatedTime', 'extraFees', 'cumFeeDetail', 'rpiTakerAccess', 'rpiMatchedQty'] as const;
const STREAM_KEYS = ['symbol', 'orderId', 'side', 'orderType', 'cancelType', 'price', 'qty', 'orderIv', 'timeInForce', 'orderStatus', 'orderLinkId', 'lastPriceOnCreated', 'reduceOnly', 'leavesQty', 'leavesValue', 'cumExecQty', 'cumExecValue', 'avgPrice', 'blockTradeId', 'positionIdx', 'cumExecFee', 'closedPnl', 'createdTime', 'updatedTime', 'rejectReason', 'stopOrderType', 'tpslMode', 'triggerPrice', 'takeProfit', 'stopLoss', 'tpTriggerBy', 'slTriggerBy', 'tpLimitPrice', 'slLimitPrice', 'triggerDirection', 'triggerBy', 'closeOnTrigger', 'category', 'placeType', 'smpType', 'smpGroup', 'smpOrderId', 'feeCurrency', 'cumFeeDetail', 'rpiTakerAccess', 'rpiMatchedQty'] as const;

export const realtimeOrderJson = (spec: InstrumentSpec, account: AccountKey, o: OrderRecord) => pick(orderFields(spec, account, o), REALTIME_KEYS);
export const historyOrderJson = (spec: InstrumentSpec, account: AccountKey, o: OrderRecord) => pick(orderFields(spec, account, o), HISTORY_KEYS);
export const streamOrderJson = (spec: InstrumentSpec, account: AccountKey, o: OrderRecord) => pick(orderFields(spec, account, o), STREAM_KEYS);

// ---- executions ----

export interface ExecContext {
  spec: InstrumentSpec;
  account: AccountKey;
  order: OrderRecord | undefined;
  /** What was left of the order after this fill. */
  leavesQty: string;
  /** The tape's last price at the fill (the simulator's mark). */
  markPrice: string;
  /** Size of the position this fill closed ('' when unknown). */
  closedSize: string;
}

function execFields(f: FillRecord, x: ExecContext): Record<string, unknown> {
  const o = x.order;
  const { spec } = x;
  return {
    category: spec.category,
    symbol: f.symbol,
    orderType: o ? orderTypeOf(o) : 'Market',
    underlyingPrice: '',
    orderLinkId: o?.meta.orderLinkId ?? '',
    side: f.side === 'BUY' ? 'Buy' : 'Sell',
    indexPrice: '',
    orderId: bybitOrderId(x.account, f.orderId),
    stopOrderType: o && isConditional(o) ? (o.meta.stopOrderType ?? 'Stop') : 'UNKNOWN',
    leavesQty: x.leavesQty,
    execTime: String(f.time),
    feeCurrency: '',
    isMaker: f.maker,
    execFee: money(f.fee),
    feeRate: f.liquidation ? '0' : f.maker ? BYBIT_MAKER_RATE : BYBIT_TAKER_RATE,
    execId: bybitExecId(x.account, f.id),
    tradeIv: '',
    blockTradeId: '',
    markPrice: x.markPrice,
    execPrice: priceOf(spec, f.price),
    markIv: '',
    orderQty: o ? qtyOf(spec, o.qty) : qtyOf(spec, f.qty),
    orderPrice: priceOf(spec, o?.price ?? null),
    execValue: amount(valueOf(spec, fixed(f.qty), fixed(f.price))),
    execType: f.liquidation ? 'BustTrade' : 'Trade',
    execQty: qtyOf(spec, f.qty),
    closedSize: x.closedSize,
    extraFees: '',
    seq: f.id,
    isLeverage: '0',
    marketUnit: '',
    execPnl: money(f.realisedPnl),
    createType: o ? createTypeOf(o) : 'CreateByUser',
  };
}

// docs order/execution.mdx example (REST) and websocket/private/execution.mdx example (stream).
const EXEC_KEYS = ['symbol', 'orderType', 'underlyingPrice', 'orderLinkId', 'side', 'indexPrice', 'orderId', 'stopOrderType', 'leavesQty', 'execTime', 'feeCurrency', 'isMaker', 'execFee', 'feeRate', 'execId', 'tradeIv', 'blockTradeId', 'markPrice', 'execPrice', 'markIv', 'orderQty', 'orderPrice', 'execValue', 'execType', 'execQty', 'closedSize', 'extraFees', 'seq'] as const;
const STREAM_EXEC_KEYS = ['category', 'symbol', 'closedSize', 'execFee', 'execId', 'execPrice', 'execQty', 'execType', 'execValue', 'feeRate', 'tradeIv', 'markIv', 'blockTradeId', 'markPrice', 'indexPrice', 'underlyingPrice', 'leavesQty', 'orderId', 'orderLinkId', 'orderPrice', 'orderQty', 'orderType', 'stopOrderType', 'side', 'execTime', 'isLeverage', 'isMaker', 'seq', 'marketUnit', 'execPnl', 'createType', 'extraFees', 'feeCurrency'] as const;

export const executionJson = (f: FillRecord, x: ExecContext) => pick(execFields(f, x), EXEC_KEYS);
export const streamExecutionJson = (f: FillRecord, x: ExecContext) => ({ ...pick(execFields(f, x), STREAM_EXEC_KEYS), feeCurrency: x.spec.settle });

// ---- positions ----

/** The risk tier a position value falls in (riskId is its 1-based index). */
function tierOf(symbol: string, cost: bigint): { id: number; limit: string } {
  const tiers = bybitTiers(symbol) ?? [];
  const i = Math.max(
    0,
    tiers.findIndex((t) => t.cap === null || cost <= fixed(t.cap)),
  );
  const capped = [...tiers].reverse().find((t) => t.cap !== null);
  return { id: i + 1, limit: tiers[i]?.cap ?? capped?.cap ?? '0' };
}

const derived = (spec: InstrumentSpec, s: string | null) => (s === null || fixed(s) <= 0n ? '' : formatFixed(fixed(s), tickDecimals(spec), 'half-up'));

/** A position's TP / SL trigger prices (its Full TP/SL orders, bybit/tpsl.ts); absent = not set. */
export interface PositionTpsl {
  takeProfit?: string | null;
  stopLoss?: string | null;
}

function positionFields(spec: InstrumentSpec, p: PositionView, mark: string, tpsl: PositionTpsl = {}): Record<string, unknown> {
  const flat = p.side === 'FLAT';
  const size = fixed(p.size);
  const abs = size < 0n ? -size : size;
  const cost = flat ? 0n : (fixed(p.entryPrice) === 0n ? 0n : valueOf(spec, abs, fixed(p.entryPrice)));
  const tier = tierOf(p.symbol, cost);
  const zeroPrice = formatFixed(0n, tickDecimals(spec));
  const liq = flat ? '' : derived(spec, p.liquidationPrice);
  return {
    positionIdx: 0,
    riskId: tier.id,
    riskLimitValue: tier.limit,
    symbol: p.symbol,
    side: flat ? '' : size > 0n ? 'Buy' : 'Sell',
    // A flat position's size is "0" (fixture ws-private-position.doc.json), an open one has the step's decimals.
    size: flat ? '0' : formatFixed(abs, decimalsOf(spec.qtyStep)),
    avgPrice: flat ? '0' : money(p.entryPrice),
    entryPrice: flat ? '0' : money(p.entryPrice),
    positionValue: amount(cost),
    tradeMode: 0,
    positionStatus: 'Normal',
    autoAddMargin: 0,
    adlRankIndicator: flat ? 0 : 2,
    leverage: String(p.leverage),
    breakEvenPrice: flat ? '0' : money(p.breakEvenPrice),
    positionBalance: money(p.initialMargin),
    markPrice: mark,
    liqPrice: liq,
    bustPrice: '',
    positionMM: money(p.maintMargin),
    positionMMByMp: money(p.maintMargin),
    positionIM: money(p.initialMargin),
    positionIMByMp: money(p.initialMargin),
    tpslMode: 'Full',
    takeProfit: tpsl.takeProfit ? priceOf(spec, tpsl.takeProfit) : zeroPrice,
    stopLoss: tpsl.stopLoss ? priceOf(spec, tpsl.stopLoss) : zeroPrice,
    trailingStop: zeroPrice,
    unrealisedPnl: money(p.unrealisedPnl),
    curRealisedPnl: flat ? '0' : money(p.realisedPnl),
    cumRealisedPnl: money(p.realisedPnl),
    seq: p.updatedAt,
    isReduceOnly: false,
    mmrSysUpdateTime: '',
    mmrSysUpdatedTime: '',
    leverageSysUpdatedTime: '',
    sessionAvgPrice: '',
    createdTime: String(p.updatedAt),
    updatedTime: String(p.updatedAt),
    category: spec.category,
  };
}

// Fixtures position-list-inverse.response.doc.json (REST) and ws-private-position.doc.json (stream).
const POSITION_KEYS = ['positionIdx', 'riskId', 'riskLimitValue', 'symbol', 'side', 'size', 'avgPrice', 'positionValue', 'tradeMode', 'positionStatus', 'autoAddMargin', 'adlRankIndicator', 'leverage', 'breakEvenPrice', 'positionBalance', 'markPrice', 'liqPrice', 'bustPrice', 'positionMM', 'positionMMByMp', 'positionIM', 'positionIMByMp', 'tpslMode', 'takeProfit', 'stopLoss', 'trailingStop', 'unrealisedPnl', 'curRealisedPnl', 'cumRealisedPnl', 'seq', 'isReduceOnly', 'mmrSysUpdateTime', 'leverageSysUpdatedTime', 'sessionAvgPrice', 'createdTime', 'updatedTime'] as const;
const STREAM_POSITION_KEYS = ['positionIdx', 'tradeMode', 'riskId', 'riskLimitValue', 'symbol', 'side', 'size', 'entryPrice', 'leverage', 'breakEvenPrice', 'positionValue', 'positionBalance', 'markPrice', 'positionIM', 'positionIMByMp', 'positionMM', 'positionMMByMp', 'takeProfit', 'stopLoss', 'trailingStop', 'unrealisedPnl', 'curRealisedPnl', 'cumRealisedPnl', 'sessionAvgPrice', 'createdTime', 'updatedTime', 'tpslMode', 'liqPrice', 'bustPrice', 'category', 'positionStatus', 'adlRankIndicator', 'autoAddMargin', 'leverageSysUpdatedTime', 'mmrSysUpdatedTime', 'seq', 'isReduceOnly'] as const;

export const positionJson = (spec: InstrumentSpec, p: PositionView, mark: string, tpsl?: PositionTpsl) => pick(positionFields(spec, p, mark, tpsl), POSITION_KEYS);
export const streamPositionJson = (spec: InstrumentSpec, p: PositionView, mark: string, tpsl?: PositionTpsl) => pick(positionFields(spec, p, mark, tpsl), STREAM_POSITION_KEYS);

// ---- the unified wallet ----

const mul = (a: bigint, b: bigint) => (a * b) / ONE;
const ratio = (a: bigint, b: bigint) => (b <= 0n ? '0' : formatFixed((a * ONE) / b, 4));
const nonNegative = (v: bigint) => (v > 0n ? v : 0n);

interface CoinFields {
  usd: bigint;
  wallet: bigint;
  equity: bigint;
  upl: bigint;
  im: bigint;
  orderIm: bigint;
  mm: bigint;
  available: bigint;
  fields: Record<string, unknown>;
}

function coinFields(b: BalanceView, usd: bigint): CoinFields {
  const wallet = fixed(b.wallet);
  const upl = fixed(b.unrealisedPnl);
  const equity = wallet + upl;
  const im = fixed(b.positionMargin);
  const orderIm = fixed(b.orderMargin);
  const mm = fixed(b.maintMargin);
  const available = nonNegative(fixed(b.available));
  const withdrawable = available < wallet ? available : nonNegative(wallet);
  return {
    usd,
    wallet,
    equity,
    upl,
    im,
    orderIm,
    mm,
    available,
    fields: {
      availableToBorrow: '',
      bonus: '0',
      accruedInterest: '0',
      availableToWithdraw: amount(withdrawable),
      totalOrderIM: amount(orderIm),
      equity: amount(equity),
      totalPositionMM: amount(mm),
      usdValue: amount(mul(equity, usd)),
      spotHedgingQty: '0',
      unrealisedPnl: amount(upl),
      collateralSwitch: true,
      borrowAmount: '0',
      totalPositionIM: amount(im),
      walletBalance: amount(wallet),
      // Bybit's cumulative realised P&L of a coin includes the fees: here wallet − the starting balance.
      cumRealisedPnl: amount(wallet - fixed(BYBIT_STARTING_BALANCES[b.currency] ?? '0')),
      locked: '0',
      marginCollateral: true,
      coin: b.currency,
      spotBorrow: '0',
    },
  };
}

// Fixture wallet-balance.response.doc.json (REST: account keys, then coin keys) and the docs' stream example.
const COIN_KEYS = ['availableToBorrow', 'bonus', 'accruedInterest', 'availableToWithdraw', 'totalOrderIM', 'equity', 'totalPositionMM', 'usdValue', 'spotHedgingQty', 'unrealisedPnl', 'collateralSwitch', 'borrowAmount', 'totalPositionIM', 'walletBalance', 'cumRealisedPnl', 'locked', 'marginCollateral', 'coin', 'spotBorrow'] as const;
const STREAM_COIN_KEYS = ['coin', 'equity', 'usdValue', 'walletBalance', 'availableToWithdraw', 'availableToBorrow', 'borrowAmount', 'accruedInterest', 'totalOrderIM', 'totalPositionIM', 'totalPositionMM', 'unrealisedPnl', 'cumRealisedPnl', 'bonus', 'collateralSwitch', 'marginCollateral', 'locked', 'spotHedgingQty', 'spotBorrow'] as const;
const ACCOUNT_KEYS = ['totalEquity', 'accountIMRate', 'accountIMRateByMp', 'totalMarginBalance', 'totalInitialMargin', 'totalInitialMarginByMp', 'accountType', 'totalAvailableBalance', 'accountMMRate', 'accountMMRateByMp', 'totalPerpUPL', 'totalWalletBalance', 'accountLTV', 'totalMaintenanceMargin', 'totalMaintenanceMarginByMp', 'coin'] as const;
const STREAM_ACCOUNT_KEYS = ['accountIMRate', 'accountIMRateByMp', 'accountMMRate', 'accountMMRateByMp', 'totalEquity', 'totalWalletBalance', 'totalMarginBalance', 'totalAvailableBalance', 'totalPerpUPL', 'totalInitialMargin', 'totalInitialMarginByMp', 'totalMaintenanceMargin', 'totalMaintenanceMarginByMp', 'coin', 'accountLTV', 'accountType'] as const;

/**
 * The unified account's wallet: one row per coin (each coin margins its own contracts: USDT the
 * linear ones, BTC the BTCUSD inverse one), account totals in USD at the coins' last prices.
 */
export function walletJson(balances: Array<{ balance: BalanceView; usd: bigint }>, stream = false): Record<string, unknown> {
  const coins = balances.map(({ balance, usd }) => coinFields(balance, usd));
  const total = (f: (c: CoinFields) => bigint) => coins.reduce((a, c) => a + mul(f(c), c.usd), 0n);
  const walletUsd = total((c) => c.wallet);
  const upl = total((c) => c.upl);
  const margin = walletUsd + upl;
  const im = total((c) => c.im + c.orderIm);
  const mm = total((c) => c.mm);
  const all: Record<string, unknown> = {
    totalEquity: amount(total((c) => c.equity)),
    accountIMRate: ratio(im, margin),
    accountIMRateByMp: ratio(im, margin),
    totalMarginBalance: amount(margin),
    totalInitialMargin: amount(im),
    totalInitialMarginByMp: amount(im),
    accountType: 'UNIFIED',
    totalAvailableBalance: amount(total((c) => c.available)),
    accountMMRate: ratio(mm, margin),
    accountMMRateByMp: ratio(mm, margin),
    totalPerpUPL: amount(upl),
    totalWalletBalance: amount(walletUsd),
    accountLTV: '0',
    totalMaintenanceMargin: amount(mm),
    totalMaintenanceMarginByMp: amount(mm),
    coin: coins.map((c) => pick(c.fields, stream ? STREAM_COIN_KEYS : COIN_KEYS)),
  };
  return pick(all, stream ? STREAM_ACCOUNT_KEYS : ACCOUNT_KEYS);
}
