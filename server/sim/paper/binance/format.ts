import { createHash } from 'node:crypto';
import { decimalsOf, fixed, formatFixed, trimZeros, type BalanceView, type FillRecord, type InstrumentSpec, type OrderRecord, type PositionView } from '../engine';

/**
 * Engine records → Binance USDⓈ-M JSON, field for field and in the order of Binance's documented
 * examples (the fixtures' shapes, compared by `shapeOf` in the tests). Decimals are strings,
 * money with 8 decimals, prices with the tick's decimals, ids and times numbers.
 */

/** Engine conditional types ↔ Binance's names (Binance's STOP is a stop-limit). */
export const ALGO_TYPES = { STOP_MARKET: 'STOP_MARKET', STOP_LIMIT: 'STOP', TAKE_PROFIT: 'TAKE_PROFIT', TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET' } as const;
export const ENGINE_ALGO_TYPE = { STOP_MARKET: 'STOP_MARKET', STOP: 'STOP_LIMIT', TAKE_PROFIT: 'TAKE_PROFIT', TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET' } as const;
export type BinanceAlgoType = keyof typeof ENGINE_ALGO_TYPE;

export const isAlgo = (o: OrderRecord): boolean => o.type in ALGO_TYPES;
/** The id Binance shows for an order: a fired conditional's released order has its own id. */
export const binanceOrderId = (o: OrderRecord): number => (isAlgo(o) ? (o.releasedId ?? o.id) : o.id);

const money = (s: string) => formatFixed(fixed(s), 8);
const price = (spec: InstrumentSpec, s: string | null) => (s === null ? '0' : formatFixed(fixed(s), decimalsOf(spec.tickSize)));
const qty = (spec: InstrumentSpec, s: string) => formatFixed(fixed(s), decimalsOf(spec.qtyStep));
/** Derived prices (entry, break-even, liquidation) print without padding, like Binance ("0.385"). */
const derived = (s: string | null) => (s === null || fixed(s) === 0n ? '0' : trimZeros(s));

export function avgPrice(spec: InstrumentSpec, o: OrderRecord): string {
  const filled = fixed(o.filledQty);
  const decimals = Math.max(5, decimalsOf(spec.tickSize));
  if (filled === 0n) return formatFixed(0n, decimals);
  return formatFixed((fixed(o.sumPriceQty) * 10n ** 18n) / filled, decimals);
}

const STATUS: Record<OrderRecord['status'], string> = {
  NEW: 'NEW',
  PARTIALLY_FILLED: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  CANCELED: 'CANCELED',
  REJECTED: 'REJECTED',
  EXPIRED: 'EXPIRED',
  UNTRIGGERED: 'NEW',
};

/** Every field Binance may print for an order; the endpoints pick their own subset and order. */
export function orderFields(spec: InstrumentSpec, o: OrderRecord): Record<string, unknown> {
  const algo = isAlgo(o);
  const liquidation = o.type === 'LIQUIDATION';
  const type = algo ? (o.price === null ? 'MARKET' : 'LIMIT') : o.type;
  return {
    orderId: binanceOrderId(o),
    symbol: o.symbol,
    pair: o.symbol,
    status: STATUS[o.status],
    clientOrderId: liquidation ? `autoclose-${o.createdAt}` : o.clientId,
    price: price(spec, o.price),
    avgPrice: avgPrice(spec, o),
    origQty: qty(spec, o.qty),
    executedQty: qty(spec, o.filledQty),
    cumQty: qty(spec, o.filledQty),
    cumQuote: trimZeros(formatFixed(fixed(o.sumPriceQty), 8)),
    timeInForce: o.postOnly ? 'GTX' : (o.meta.timeInForce ?? o.timeInForce),
    type,
    reduceOnly: o.reduceOnly,
    closePosition: o.closePosition,
    side: o.side,
    positionSide: 'BOTH',
    stopPrice: algo ? price(spec, o.trigger) : '0',
    workingType: o.meta.workingType ?? 'CONTRACT_PRICE',
    priceProtect: o.meta.priceProtect === 'true',
    origType: algo ? ALGO_TYPES[o.type as keyof typeof ALGO_TYPES] : type,
    priceMatch: 'NONE',
    selfTradePreventionMode: o.meta.selfTradePreventionMode ?? 'NONE',
    goodTillDate: Number(o.meta.goodTillDate ?? 0),
    time: algo ? (o.triggeredAt ?? o.createdAt) : o.createdAt,
    updateTime: o.updatedAt,
  };
}

const pick = (all: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, all[k]]));

// Key orders of Binance's examples: fixtures order-new / order-cancel / open-orders, and the Modify Order doc.
const NEW_KEYS = ['clientOrderId', 'cumQty', 'cumQuote', 'executedQty', 'orderId', 'avgPrice', 'origQty', 'price', 'reduceOnly', 'side', 'positionSide', 'status', 'stopPrice', 'closePosition', 'symbol', 'timeInForce', 'type', 'origType', 'updateTime', 'workingType', 'priceProtect', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate'] as const;
const CANCEL_KEYS = ['clientOrderId', 'cumQty', 'cumQuote', 'executedQty', 'orderId', 'origQty', 'origType', 'price', 'avgPrice', 'reduceOnly', 'side', 'positionSide', 'status', 'stopPrice', 'closePosition', 'symbol', 'timeInForce', 'type', 'updateTime', 'workingType', 'priceProtect', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate'] as const;
const QUERY_KEYS = ['avgPrice', 'clientOrderId', 'cumQuote', 'executedQty', 'orderId', 'origQty', 'origType', 'price', 'reduceOnly', 'side', 'positionSide', 'status', 'stopPrice', 'closePosition', 'symbol', 'time', 'timeInForce', 'type', 'updateTime', 'workingType', 'priceProtect', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate'] as const;
const MODIFY_KEYS = ['orderId', 'symbol', 'pair', 'status', 'clientOrderId', 'price', 'avgPrice', 'origQty', 'executedQty', 'cumQty', 'cumQuote', 'timeInForce', 'type', 'reduceOnly', 'closePosition', 'side', 'positionSide', 'stopPrice', 'workingType', 'priceProtect', 'origType', 'priceMatch', 'selfTradePreventionMode', 'goodTillDate', 'updateTime'] as const;

export const newOrderJson = (spec: InstrumentSpec, o: OrderRecord) => pick(orderFields(spec, o), NEW_KEYS);
export const cancelOrderJson = (spec: InstrumentSpec, o: OrderRecord) => pick(orderFields(spec, o), CANCEL_KEYS);
export const queryOrderJson = (spec: InstrumentSpec, o: OrderRecord) => pick(orderFields(spec, o), QUERY_KEYS);
export const modifyOrderJson = (spec: InstrumentSpec, o: OrderRecord) => pick(orderFields(spec, o), MODIFY_KEYS);

/** Binance's algo status for a conditional order's lifecycle. */
export function algoStatus(o: OrderRecord): string {
  if (o.status === 'UNTRIGGERED') return 'NEW';
  // Fired with nothing to reduce: Binance cancels it ("Reduce Only reject", fixture uds-algo-update.json).
  if (o.reason === 'reduce-only' && fixed(o.filledQty) === 0n) return 'CANCELED';
  if (o.triggeredAt === null) return o.status === 'CANCELED' ? 'CANCELED' : o.status === 'REJECTED' ? 'REJECTED' : 'EXPIRED';
  if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') return 'TRIGGERED';
  return o.status === 'FILLED' ? 'FINISHED' : o.status;
}

export function algoFields(spec: InstrumentSpec, o: OrderRecord): Record<string, unknown> {
  const fired = o.triggeredAt !== null;
  return {
    algoId: o.id,
    clientAlgoId: o.clientId,
    algoType: 'CONDITIONAL',
    orderType: ALGO_TYPES[o.type as keyof typeof ALGO_TYPES],
    symbol: o.symbol,
    side: o.side,
    positionSide: 'BOTH',
    timeInForce: o.meta.timeInForce ?? o.timeInForce,
    quantity: qty(spec, o.qty),
    algoStatus: algoStatus(o),
    actualOrderId: fired && o.releasedId !== null ? String(o.releasedId) : '',
    actualPrice: fired ? avgPrice(spec, o) : formatFixed(0n, 5),
    triggerPrice: price(spec, o.trigger),
    price: price(spec, o.price),
    icebergQuantity: null,
    tpTriggerPrice: formatFixed(0n, decimalsOf(spec.tickSize)),
    tpPrice: formatFixed(0n, decimalsOf(spec.tickSize)),
    slTriggerPrice: formatFixed(0n, decimalsOf(spec.tickSize)),
    slPrice: formatFixed(0n, decimalsOf(spec.tickSize)),
    tpOrderType: '',
    selfTradePreventionMode: o.meta.selfTradePreventionMode ?? 'EXPIRE_MAKER',
    workingType: o.meta.workingType ?? 'CONTRACT_PRICE',
    priceMatch: 'NONE',
    closePosition: o.closePosition,
    priceProtect: o.meta.priceProtect === 'true',
    reduceOnly: o.reduceOnly,
    activatePrice: '',
    callbackRate: '',
    createTime: o.createdAt,
    updateTime: o.updatedAt,
    triggerTime: o.triggeredAt ?? 0,
    goodTillDate: Number(o.meta.goodTillDate ?? 0),
  };
}

// algo-order.response.json (new / query after placing) and open-algo-orders.response.json (lists, queries).
const ALGO_NEW_KEYS = ['algoId', 'clientAlgoId', 'algoType', 'orderType', 'symbol', 'side', 'positionSide', 'timeInForce', 'quantity', 'algoStatus', 'triggerPrice', 'price', 'icebergQuantity', 'selfTradePreventionMode', 'workingType', 'priceMatch', 'closePosition', 'priceProtect', 'reduceOnly', 'activatePrice', 'callbackRate', 'createTime', 'updateTime', 'triggerTime', 'goodTillDate'] as const;
const ALGO_LIST_KEYS = ['algoId', 'clientAlgoId', 'algoType', 'orderType', 'symbol', 'side', 'positionSide', 'timeInForce', 'quantity', 'algoStatus', 'actualOrderId', 'actualPrice', 'triggerPrice', 'price', 'icebergQuantity', 'tpTriggerPrice', 'tpPrice', 'slTriggerPrice', 'slPrice', 'tpOrderType', 'selfTradePreventionMode', 'workingType', 'priceMatch', 'closePosition', 'priceProtect', 'reduceOnly', 'createTime', 'updateTime', 'triggerTime', 'goodTillDate'] as const;

export const newAlgoJson = (spec: InstrumentSpec, o: OrderRecord) => pick(algoFields(spec, o), ALGO_NEW_KEYS);
export const listAlgoJson = (spec: InstrumentSpec, o: OrderRecord) => pick(algoFields(spec, o), ALGO_LIST_KEYS);

/** `GET /fapi/v1/userTrades` rows. `commission` is positive when paid (negative = rebate). */
export function userTradeJson(spec: InstrumentSpec, f: FillRecord, orderId: number) {
  return {
    buyer: f.side === 'BUY',
    commission: money(f.fee),
    commissionAsset: f.feeCurrency,
    id: f.id,
    maker: f.maker,
    orderId,
    price: price(spec, f.price),
    qty: qty(spec, f.qty),
    quoteQty: trimZeros(formatFixed((fixed(f.price) * fixed(f.qty)) / 10n ** 18n, 8)),
    realizedPnl: money(f.realisedPnl),
    side: f.side,
    positionSide: 'BOTH',
    symbol: f.symbol,
    time: f.time,
  };
}

export interface PositionExtras {
  orderMargin: bigint;
  bidNotional: bigint;
  askNotional: bigint;
  maxNotional: string;
}

function positionCommon(spec: InstrumentSpec, p: PositionView) {
  const isolated = p.marginMode === 'isolated';
  return {
    symbol: p.symbol,
    positionSide: 'BOTH',
    positionAmt: qty(spec, p.size),
    entryPrice: p.side === 'FLAT' ? '0.0' : derived(p.entryPrice),
    breakEvenPrice: derived(p.side === 'FLAT' ? null : p.breakEvenPrice),
    markPrice: formatFixed(fixed(p.markPrice), 8),
    unRealizedProfit: money(p.unrealisedPnl),
    liquidationPrice: derived(p.liquidationPrice),
    // Binance's isolatedMargin includes the unrealised PnL; isolatedWallet does not.
    isolatedMargin: isolated ? formatFixed(fixed(p.isolatedMargin) + fixed(p.unrealisedPnl), 8) : '0.00000000',
    notional: money(p.notional),
    marginAsset: p.currency,
    isolatedWallet: isolated ? money(p.isolatedMargin) : '0',
  };
}

/** `GET /fapi/v3/positionRisk` rows (fixture position-risk-v3.response.json). */
export function positionRiskJson(spec: InstrumentSpec, p: PositionView, x: PositionExtras) {
  const notional = fixed(p.notional);
  // Binance's position initial margin is the mark value over the leverage.
  const positionIm = (notional < 0n ? -notional : notional) / BigInt(p.leverage);
  return {
    ...positionCommon(spec, p),
    initialMargin: formatFixed(positionIm + x.orderMargin, 8),
    maintMargin: money(p.maintMargin),
    positionInitialMargin: formatFixed(positionIm, 8),
    openOrderInitialMargin: formatFixed(x.orderMargin, 8),
    adl: p.side === 'FLAT' ? 0 : 1,
    bidNotional: formatFixed(x.bidNotional, 8),
    askNotional: formatFixed(x.askNotional, 8),
    updateTime: p.updatedAt,
  };
}

/** `GET /fapi/v2/positionRisk` rows: leverage, margin type and the bracket's max notional instead of margins. */
export function positionRiskV2Json(spec: InstrumentSpec, p: PositionView, x: PositionExtras) {
  return {
    ...positionCommon(spec, p),
    leverage: String(p.leverage),
    maxNotionalValue: x.maxNotional,
    marginType: p.marginMode === 'isolated' ? 'isolated' : 'cross',
    isAutoAddMargin: 'false',
    updateTime: p.updatedAt,
  };
}

/** A short stable alias per key, like Binance's `accountAlias` ("SgsR"). */
export function accountAlias(apiKey: string): string {
  const h = createHash('sha256').update(apiKey).digest();
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return [0, 1, 2, 3].map((i) => abc[h[i] % abc.length]).join('');
}

export function balanceJson(apiKey: string, b: BalanceView, updateTime: number) {
  const available = fixed(b.available);
  const cross = fixed(b.crossWallet);
  const withdrawable = available < cross ? available : cross;
  return {
    accountAlias: accountAlias(apiKey),
    asset: b.currency,
    balance: money(b.wallet),
    crossWalletBalance: money(b.crossWallet),
    crossUnPnl: money(b.crossUnrealisedPnl),
    availableBalance: money(b.available),
    maxWithdrawAmount: formatFixed(withdrawable > 0n ? withdrawable : 0n, 8),
    marginAvailable: true,
    updateTime,
  };
}
