import { decimalsOf, fixed, formatFixed, trimZeros, type BalanceView, type FillRecord, type InstrumentSpec, type OrderRecord, type PositionView } from '../engine';

/**
 * OKX v5 shapes (okx.md §6; fixtures orders-pending, positions-swap, balance): every number a string,
 * `""` for "none". Ids are 18-digit numbers: `ordId` = 17… + the engine id, `algoId` = 28… + the id
 * (a fired algo releases an order shown under its own `ordId`, as OKX does).
 */
const ORD_PREFIX = '17';
const ALGO_PREFIX = '28';
const pad = (n: number) => String(n).padStart(16, '0');

export const isAlgo = (o: OrderRecord): boolean => o.trigger !== null;
export const ordIdOf = (o: OrderRecord): string => ORD_PREFIX + pad(isAlgo(o) ? (o.releasedId ?? o.id) : o.id);
export const algoIdOf = (o: OrderRecord): string => ALGO_PREFIX + pad(o.id);

/** The engine id an `ordId` names: a plain order's id, or (for a fired algo) its released id. */
export function parseOrdId(s: string | undefined): number | null {
  if (s === undefined || !/^17\d{16}$/.test(s)) return null;
  return Number(s.slice(2));
}
export function parseAlgoId(s: string | undefined): number | null {
  if (s === undefined || !/^28\d{16}$/.test(s)) return null;
  return Number(s.slice(2));
}

const px = (spec: InstrumentSpec, s: string | null) => (s === null ? '' : formatFixed(fixed(s), decimalsOf(spec.tickSize)));
const sz = (spec: InstrumentSpec, s: string) => trimZeros(formatFixed(fixed(s), decimalsOf(spec.qtyStep)));
/** Money at 8 places, trailing zeros cut ("-0.3370175"). */
export const money = (s: string | bigint) => trimZeros(formatFixed(typeof s === 'bigint' ? s : fixed(s), 8));
export const neg = (s: string) => money(-fixed(s));

export function avgPx(spec: InstrumentSpec, o: OrderRecord): string {
  const filled = fixed(o.filledQty);
  if (filled === 0n) return '';
  return trimZeros(formatFixed((fixed(o.sumPriceQty) * 10n ** 18n) / filled, decimalsOf(spec.tickSize) + 2));
}

/** live / partially_filled / filled / canceled (OKX has no "expired": an IOC remainder is canceled). */
export function stateOf(o: OrderRecord): string {
  if (o.status === 'FILLED') return 'filled';
  if (o.status === 'PARTIALLY_FILLED') return 'partially_filled';
  if (o.status === 'NEW' || o.status === 'UNTRIGGERED') return 'live';
  return 'canceled';
}

function ordTypeOf(o: OrderRecord): string {
  if (o.type === 'MARKET' || o.type === 'STOP_MARKET' || o.type === 'TAKE_PROFIT_MARKET') return 'market';
  if (o.postOnly) return 'post_only';
  if (o.timeInForce === 'IOC') return 'ioc';
  if (o.timeInForce === 'FOK') return 'fok';
  return 'limit';
}

/** An order (REST `trade/order`, `orders-pending`, `orders-history`, the `orders` channel). */
export function orderJson(spec: InstrumentSpec, o: OrderRecord, extra: { fill?: FillRecord; tdMode?: string; lever?: string } = {}) {
  const f = extra.fill;
  const market = o.type === 'MARKET' || o.type === 'STOP_MARKET' || o.type === 'TAKE_PROFIT_MARKET';
  const cancelled = stateOf(o) === 'canceled';
  return {
    accFillSz: sz(spec, o.filledQty),
    algoClOrdId: isAlgo(o) ? o.clientId : '',
    algoId: isAlgo(o) ? algoIdOf(o) : '',
    attachAlgoClOrdId: '',
    attachAlgoOrds: [],
    avgPx: avgPx(spec, o),
    cTime: String(o.createdAt),
    cancelSource: cancelled ? (o.reason === 'post-only-would-take' ? '31' : o.reason === 'canceled' ? '1' : '0') : '',
    cancelSourceReason: cancelled ? (o.reason === 'post-only-would-take' ? 'The post-only order will take liquidity in taker orders' : o.reason === 'canceled' ? 'Order canceled by user' : (o.reason ?? '')) : '',
    category: o.reason === 'liquidation' || f?.liquidation ? 'full_liquidation' : 'normal',
    ccy: '',
    clOrdId: isAlgo(o) ? '' : o.clientId,
    fee: neg(o.fee),
    feeCcy: spec.settle,
    fillPx: f ? px(spec, f.price) : '',
    fillSz: f ? sz(spec, f.qty) : '0',
    fillTime: f ? String(f.time) : '',
    instId: spec.symbol,
    instType: 'SWAP',
    isTpLimit: 'false',
    lever: extra.lever ?? '',
    linkedAlgoOrd: { algoId: '' },
    ordId: ordIdOf(o),
    ordType: ordTypeOf(o),
    pnl: money(o.realisedPnl),
    posSide: 'net',
    px: market ? '' : px(spec, o.price),
    pxType: '',
    pxUsd: '',
    pxVol: '',
    quickMgnType: '',
    rebate: '0',
    rebateCcy: spec.settle,
    reduceOnly: String(o.reduceOnly),
    side: o.side === 'BUY' ? 'buy' : 'sell',
    slOrdPx: '',
    slTriggerPx: '',
    slTriggerPxType: '',
    source: isAlgo(o) ? '6' : '',
    state: stateOf(o),
    stpId: '',
    stpMode: 'cancel_maker',
    sz: sz(spec, o.qty),
    tag: o.meta.tag ?? '',
    tdMode: extra.tdMode ?? 'cross',
    tgtCcy: '',
    tpOrdPx: '',
    tpTriggerPx: '',
    tpTriggerPxType: '',
    tradeId: f ? String(f.id) : '',
    tradeQuoteCcy: '',
    uTime: String(o.updatedAt),
    // The `orders` channel's fill fields.
    ...(f ? { fillFee: neg(f.fee), fillFeeCcy: f.feeCurrency, fillPnl: money(f.realisedPnl), execType: f.maker ? 'M' : 'T' } : {}),
  };
}

/** An algo order (`order-algo`, `orders-algo-pending|history`): `conditional` for reduce-only SL/TP, else `trigger`. */
export function algoJson(spec: InstrumentSpec, o: OrderRecord, last: string | null) {
  const stop = o.type === 'STOP_MARKET' || o.type === 'STOP_LIMIT';
  const orderPx = o.type === 'STOP_MARKET' || o.type === 'TAKE_PROFIT_MARKET' ? '-1' : px(spec, o.price);
  const conditional = o.meta.okxOrdType === 'conditional';
  const fired = o.triggeredAt !== null;
  const state = o.status === 'UNTRIGGERED' ? 'live' : o.status === 'CANCELED' && !fired ? 'canceled' : fired ? 'effective' : o.status === 'REJECTED' ? 'order_failed' : 'canceled';
  return {
    activePx: '',
    actualPx: fired ? avgPx(spec, o) : '',
    actualSide: fired ? (stop ? 'sl' : 'tp') : '',
    actualSz: fired ? sz(spec, o.qty) : '0',
    algoClOrdId: o.clientId,
    algoId: algoIdOf(o),
    cTime: String(o.createdAt),
    ccy: '',
    clOrdId: '',
    instId: spec.symbol,
    instType: 'SWAP',
    last: last === null ? '' : px(spec, last),
    lever: '',
    ordId: fired && o.releasedId !== null ? ordIdOf(o) : '',
    ordIdList: fired && o.releasedId !== null ? [ordIdOf(o)] : [],
    ordPx: '',
    ordType: conditional ? 'conditional' : 'trigger',
    orderPx: conditional ? '' : orderPx,
    posSide: 'net',
    reduceOnly: String(o.reduceOnly),
    side: o.side === 'BUY' ? 'buy' : 'sell',
    slOrdPx: conditional && stop ? orderPx : '',
    slTriggerPx: conditional && stop ? px(spec, o.trigger) : '',
    slTriggerPxType: conditional && stop ? 'last' : '',
    state,
    sz: sz(spec, o.qty),
    tag: o.meta.tag ?? '',
    tdMode: o.meta.tdMode ?? 'cross',
    tgtCcy: '',
    tpOrdPx: conditional && !stop ? orderPx : '',
    tpTriggerPx: conditional && !stop ? px(spec, o.trigger) : '',
    tpTriggerPxType: conditional && !stop ? 'last' : '',
    triggerPx: conditional ? '' : px(spec, o.trigger),
    triggerPxType: conditional ? '' : 'last',
    triggerTime: fired ? String(o.triggeredAt) : '',
    uTime: String(o.updatedAt),
  };
}

/** A fill (`trade/fills`); `fee` negative when paid (OKX's sign). */
export function fillJson(spec: InstrumentSpec, f: FillRecord, ordId: string, clOrdId: string, tag = '') {
  return {
    billId: String(f.id),
    clOrdId,
    execType: f.maker ? 'M' : 'T',
    fee: neg(f.fee),
    feeCcy: f.feeCurrency,
    fillIdxPx: '',
    fillMarkPx: px(spec, f.price),
    fillPnl: money(f.realisedPnl),
    fillPx: px(spec, f.price),
    fillSz: sz(spec, f.qty),
    fillTime: String(f.time),
    instId: spec.symbol,
    instType: 'SWAP',
    ordId,
    posSide: 'net',
    side: f.side === 'BUY' ? 'buy' : 'sell',
    subType: f.liquidation ? (f.side === 'BUY' ? '110' : '109') : f.side === 'BUY' ? '1' : '2',
    tag,
    tradeId: String(f.id),
    ts: String(f.time),
  };
}

/** A position (positions-swap.response.json): `pos` signed contracts, money in the settle currency. */
export function positionJson(spec: InstrumentSpec, p: PositionView, last: string) {
  const value = fixed(p.notional) < 0n ? -fixed(p.notional) : fixed(p.notional);
  const usd = spec.category === 'linear' ? value : (value * fixed(last)) / 10n ** 18n;
  return {
    adl: '1',
    availPos: '',
    avgPx: trimZeros(p.entryPrice),
    cTime: String(p.updatedAt),
    ccy: spec.settle,
    deltaBS: '',
    deltaPA: '',
    fee: '0',
    fundingFee: '0',
    gammaBS: '',
    gammaPA: '',
    idxPx: px(spec, last),
    imr: p.marginMode === 'cross' ? money(p.initialMargin) : '',
    instId: spec.symbol,
    instType: 'SWAP',
    interest: '',
    last: px(spec, last),
    lever: String(p.leverage),
    liab: '',
    liabCcy: '',
    liqPx: p.liquidationPrice === null ? '' : trimZeros(formatFixed(fixed(p.liquidationPrice), decimalsOf(spec.tickSize))),
    margin: p.marginMode === 'isolated' ? money(p.isolatedMargin) : '',
    markPx: trimZeros(p.markPrice),
    mgnMode: p.marginMode,
    mgnRatio: '',
    mmr: money(p.maintMargin),
    notionalUsd: money(usd),
    pnl: money(p.realisedPnl),
    pos: trimZeros(formatFixed(fixed(p.size), decimalsOf(spec.qtyStep))),
    posCcy: '',
    posId: `7${String(Math.abs(hash(spec.symbol))).padStart(17, '0')}`,
    posSide: 'net',
    realizedPnl: money(p.realisedPnl),
    tradeId: '',
    uTime: String(p.updatedAt),
    upl: money(p.unrealisedPnl),
    uplLastPx: money(p.unrealisedPnl),
    uplRatio: '',
    uplRatioLastPx: '',
    usdPx: '',
    vegaBS: '',
    vegaPA: '',
    bePx: trimZeros(p.breakEvenPrice),
    nonSettleAvgPx: '',
    settledPnl: '',
  };
}

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}

/** `account/balance` (balance.response.json): one row, a `details` entry per currency held. */
export function balanceJson(list: BalanceView[], usdOf: (currency: string) => bigint, now: number) {
  const usd = (amount: string, ccy: string) => (fixed(amount) * usdOf(ccy)) / 10n ** 18n;
  const total = list.reduce((a, b) => a + usd(b.marginBalance, b.currency), 0n);
  const imr = list.reduce((a, b) => a + usd(b.positionMargin, b.currency), 0n);
  const ord = list.reduce((a, b) => a + usd(b.orderMargin, b.currency), 0n);
  const mmr = list.reduce((a, b) => a + usd(b.maintMargin, b.currency), 0n);
  const upl = list.reduce((a, b) => a + usd(b.unrealisedPnl, b.currency), 0n);
  return {
    adjEq: money(total),
    availEq: money(list.reduce((a, b) => a + usd(b.available, b.currency), 0n)),
    borrowFroz: '0',
    delta: '0',
    deltaLever: '0',
    deltaNeutralStatus: '0',
    details: list.map((b) => ({
      autoLendStatus: 'off',
      autoLendMtAmt: '0',
      availBal: money(b.available),
      availEq: money(b.available),
      borrowFroz: '0',
      cashBal: money(b.wallet),
      ccy: b.currency,
      crossLiab: '0',
      colRes: '0',
      collateralEnabled: false,
      collateralRestrict: false,
      colBorrAutoConversion: '0',
      disEq: money(usd(b.marginBalance, b.currency)),
      eq: money(b.marginBalance),
      eqUsd: money(usd(b.marginBalance, b.currency)),
      smtSyncEq: '0',
      spotCopyTradingEq: '0',
      fixedBal: '0',
      frozenBal: money(fixed(b.positionMargin) + fixed(b.orderMargin)),
      frpType: '0',
      imr: money(b.positionMargin),
      interest: '0',
      isoEq: '0',
      isoLiab: '0',
      isoUpl: '0',
      liab: '0',
      maxLoan: '0',
      mgnRatio: '',
      mmr: money(b.maintMargin),
      notionalLever: '',
      ordFrozen: money(b.orderMargin),
      rewardBal: '0',
      spotInUseAmt: '',
      clSpotInUseAmt: '',
      maxSpotInUse: '',
      spotIsoBal: '0',
      stgyEq: '0',
      twap: '0',
      uTime: String(now),
      upl: money(b.unrealisedPnl),
      uplLiab: '0',
      spotBal: '',
      openAvgPx: '',
      accAvgPx: '',
      spotUpl: '',
      spotUplRatio: '',
      totalPnl: '',
      totalPnlRatio: '',
    })),
    imr: money(imr),
    isoEq: '0',
    mgnRatio: '',
    mmr: money(mmr),
    notionalUsd: money(imr),
    notionalUsdForBorrow: '0',
    notionalUsdForFutures: '0',
    notionalUsdForOption: '0',
    notionalUsdForSwap: money(imr),
    ordFroz: money(ord),
    totalEq: money(total),
    uTime: String(now),
    upl: money(upl),
  };
}
