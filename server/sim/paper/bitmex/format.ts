import { decimalsOf, fixed, formatFixed, trimZeros, type BalanceView, type FillRecord, type InstrumentSpec, type OrderRecord, type PositionView } from '../engine';
import { bitmexQuoteOf, isBitmexQuanto, MINOR_SCALE } from './economics';

/**
 * BitMEX shapes (order.response.json, position.response.json, margin.response.json): order ids are
 * UUIDs derived from the account and the engine id; quantities and prices as the fixtures print them;
 * money in minor units (XBt, USDt integers). BitMEX symbols and currencies as the catalogue names them.
 */
export function orderIdOf(accountTag: string, id: number): string {
  const h = accountTag.padEnd(12, '0').slice(0, 12);
  const n = id.toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4000-8000-${n}`;
}

/** The engine id of a UUID this account's orders carry (null: not one of ours). */
export function engineIdOf(accountTag: string, orderID: string): number | null {
  const m = /^[0-9a-f]{8}-[0-9a-f]{4}-4000-8000-([0-9a-f]{12})$/.exec(orderID);
  if (!m) return null;
  const id = parseInt(m[1], 16);
  return orderIdOf(accountTag, id) === orderID ? id : null;
}

/** A hex tag of the account (the UUIDs' first 12 digits). */
export function accountTagOf(apiKey: string, network: string): string {
  let h = 0x811c9dc5;
  for (const c of `${network}:${apiKey}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  let h2 = 0x01000193;
  for (const c of `${apiKey}:${network}`) h2 = Math.imul(h2 ^ c.charCodeAt(0), 0x811c9dc5) >>> 0;
  return (h.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).slice(0, 12);
}

const iso = (ms: number) => new Date(ms).toISOString();
export const px = (spec: InstrumentSpec, s: string | null) => (s === null ? null : trimZeros(formatFixed(fixed(s), decimalsOf(spec.tickSize))));
const qty = (s: string) => trimZeros(formatFixed(fixed(s), 8));

/** Whole coins → the minor-unit integer (XBT → XBt satoshis, USDT → USDt). */
export function minor(amount: string | bigint, currency: string): number {
  const scale = MINOR_SCALE[currency] ?? 8;
  const v = typeof amount === 'bigint' ? amount : fixed(amount);
  return Number(formatFixed(v * 10n ** BigInt(scale), 0));
}

const ORD_TYPE: Record<string, string> = { LIMIT: 'Limit', MARKET: 'Market', STOP_MARKET: 'Stop', STOP_LIMIT: 'StopLimit', TAKE_PROFIT_MARKET: 'MarketIfTouched', TAKE_PROFIT: 'LimitIfTouched' };
const TIF: Record<string, string> = { GTC: 'GoodTillCancel', IOC: 'ImmediateOrCancel', FOK: 'FillOrKill' };

export function ordStatusOf(o: OrderRecord): string {
  switch (o.status) {
    case 'UNTRIGGERED':
    case 'NEW':
      return 'New';
    case 'PARTIALLY_FILLED':
      return 'PartiallyFilled';
    case 'FILLED':
      return 'Filled';
    case 'REJECTED':
      return 'Rejected';
    default:
      return 'Canceled';
  }
}

/** An Order (REST: quantities and prices as strings, as the fixtures show). */
export function orderJson(spec: InstrumentSpec, tag: string, o: OrderRecord, account: string) {
  const filled = fixed(o.filledQty);
  const open = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' || o.status === 'UNTRIGGERED';
  const avg = filled === 0n ? null : trimZeros(formatFixed((fixed(o.sumPriceQty) * 10n ** 18n) / filled, decimalsOf(spec.tickSize) + 2));
  const conditional = o.trigger !== null;
  const text =
    o.reason === 'post-only-would-take'
      ? 'Canceled: Order had execInst of ParticipateDoNotInitiate'
      : o.reason === 'reduce-only'
        ? 'Canceled: Order had execInst of ReduceOnly and would have increased position'
        : o.status === 'CANCELED'
          ? 'Canceled: Cancel from www.bitmex.com'
          : 'Submitted via API.';
  return {
    orderID: orderIdOf(tag, o.id),
    clOrdID: o.clientId,
    clOrdLinkID: '',
    account,
    symbol: spec.symbol,
    side: o.side === 'BUY' ? 'Buy' : 'Sell',
    orderQty: qty(o.qty),
    price: o.price === null ? (avg ?? null) : px(spec, o.price),
    displayQty: null,
    stopPx: conditional ? px(spec, o.trigger) : null,
    pegOffsetValue: null,
    pegPriceType: '',
    currency: bitmexQuoteOf(spec.symbol),
    settlCurrency: spec.settle,
    ordType: ORD_TYPE[o.type] ?? 'Limit',
    timeInForce: TIF[o.timeInForce] ?? 'GoodTillCancel',
    execInst: o.meta.execInst ?? '',
    contingencyType: '',
    ordStatus: ordStatusOf(o),
    triggered: conditional && o.triggeredAt !== null ? 'StopOrderTriggered' : '',
    workingIndicator: open && (!conditional || o.triggeredAt !== null),
    ordRejReason: o.status === 'REJECTED' ? (o.reason ?? '') : '',
    leavesQty: open ? qty(formatFixed(fixed(o.qty) - filled, 18)) : '0',
    cumQty: qty(o.filledQty),
    avgPx: avg,
    text,
    transactTime: iso(o.createdAt),
    timestamp: iso(o.updatedAt),
  };
}

/** An execution (`/execution/tradeHistory`, the `execution` topic); commission and PnL in minor units. */
export function executionJson(spec: InstrumentSpec, tag: string, f: FillRecord, o: OrderRecord | undefined, account: string) {
  // Value of the fill in the settle coin (fixed 1e18): contracts × contract size ÷ price (inverse) or × price
  // (linear; quanto ETHUSD: contracts × 0.000001 XBT × price = contracts × 100 × price XBt, BitMEX's value).
  const units = (fixed(f.qty) * fixed(spec.contractSize)) / 10n ** 18n;
  const value = spec.category === 'inverse' ? (units * 10n ** 18n) / fixed(f.price) : (units * fixed(f.price)) / 10n ** 18n;
  return {
    execID: orderIdOf(tag.split('').reverse().join(''), f.id),
    orderID: orderIdOf(tag, f.orderId),
    clOrdID: o?.clientId ?? '',
    account,
    symbol: spec.symbol,
    side: f.side === 'BUY' ? 'Buy' : 'Sell',
    lastQty: Number(qty(f.qty)),
    lastPx: Number(px(spec, f.price)),
    orderQty: o ? Number(qty(o.qty)) : Number(qty(f.qty)),
    price: o?.price ? Number(px(spec, o.price)) : null,
    currency: bitmexQuoteOf(spec.symbol),
    settlCurrency: spec.settle,
    execType: f.liquidation ? 'Liquidation' : 'Trade',
    ordType: o ? (ORD_TYPE[o.type] ?? 'Limit') : 'Market',
    ordStatus: o ? ordStatusOf(o) : 'Filled',
    lastLiquidityInd: f.maker ? 'AddedLiquidity' : 'RemovedLiquidity',
    execCost: minor(value, spec.settle) * (f.side === 'BUY' ? -1 : 1),
    execComm: minor(f.fee, spec.settle),
    commission: Number(f.maker ? '0.0002' : '0.00075'),
    realisedPnl: minor(fixed(f.realisedPnl) - fixed(f.fee), spec.settle),
    text: f.liquidation ? 'Liquidation' : 'Submitted via API.',
    transactTime: iso(f.time),
    timestamp: iso(f.time),
  };
}

/**
 * A Position (position.response.json): currentQty signed contracts, money in minor units. Quanto
 * (ETHUSD): money in XBt like XBTUSD; its home notional is the position's XBT value at the mark (no
 * base-coin amount exists without an ETH/XBT rate), its foreign (USD) notional null (it needs XBT's
 * USD price, which the paper venue does not take for a quanto: derived, unverified against BitMEX).
 */
export function positionJson(spec: InstrumentSpec, p: PositionView, account: number) {
  const isolated = p.marginMode === 'isolated';
  const size = fixed(p.size);
  const cur = spec.settle;
  const quanto = isBitmexQuanto(spec.symbol);
  return {
    account,
    symbol: spec.symbol,
    currency: cur,
    underlying: spec.symbol.replace(/USDT?$/, ''),
    quoteCurrency: bitmexQuoteOf(spec.symbol),
    commission: 0.00075,
    initMarginReq: 1 / p.leverage,
    maintMarginReq: Number(p.maintenanceRate),
    leverage: p.leverage,
    crossMargin: !isolated,
    currentQty: Number(qty(p.size)),
    currentCost: minor(fixed(p.notional) - fixed(p.unrealisedPnl), cur) * -1,
    isOpen: size !== 0n,
    markPrice: Number(trimZeros(p.markPrice)),
    markValue: minor(p.notional, cur) * (spec.category === 'inverse' ? -1 : 1),
    // Home currency = the underlying (XBT for XBTUSD): inverse = the value at the mark in XBT (−markValue / 1e8,
    // position.response.json), linear = the base quantity; foreign = the quote (USD: −contracts for XBTUSD).
    homeNotional: quanto || spec.category === 'inverse' ? Number(trimZeros(formatFixed(fixed(p.notional), 8))) : Number(trimZeros(formatFixed(fixed(p.amount) * (size < 0n ? -1n : 1n), 8))),
    foreignNotional: quanto ? null : spec.category === 'inverse' ? -Number(qty(p.size)) : -Number(trimZeros(formatFixed(fixed(p.notional), 8))),
    posMargin: minor(isolated ? p.isolatedMargin : p.initialMargin, cur),
    posMaint: minor(p.maintMargin, cur),
    initMargin: 0,
    maintMargin: minor(isolated ? p.isolatedMargin : p.initialMargin, cur),
    realisedPnl: minor(p.realisedPnl, cur),
    unrealisedPnl: minor(p.unrealisedPnl, cur),
    avgCostPrice: size === 0n ? null : Number(trimZeros(p.entryPrice)),
    avgEntryPrice: size === 0n ? null : Number(trimZeros(p.entryPrice)),
    breakEvenPrice: size === 0n ? null : Number(trimZeros(p.breakEvenPrice)),
    liquidationPrice: p.liquidationPrice === null ? null : Number(px(spec, p.liquidationPrice)),
    bankruptPrice: p.bankruptcyPrice === null ? null : Number(px(spec, p.bankruptcyPrice)),
    timestamp: iso(p.updatedAt),
  };
}

/** A margin row (margin.response.json) of one settle currency, in its minor units. */
export function marginJson(b: BalanceView, account: number, now: number) {
  const c = b.currency;
  return {
    account,
    currency: c,
    riskLimit: 1000000000000,
    state: '',
    amount: minor(b.wallet, c),
    grossComm: 0,
    grossOpenCost: minor(b.orderMargin, c),
    grossMarkValue: 0,
    riskValue: 0,
    initMargin: minor(b.orderMargin, c),
    maintMargin: minor(b.positionMargin, c),
    realisedPnl: 0,
    unrealisedPnl: minor(b.unrealisedPnl, c),
    walletBalance: minor(b.wallet, c),
    marginBalance: minor(b.marginBalance, c),
    marginUsedPcnt: 0,
    excessMargin: minor(b.available, c),
    availableMargin: minor(b.available, c),
    withdrawableMargin: minor(b.available, c),
    timestamp: iso(now),
  };
}

/** A Wallet row (`/user/wallet`, the `wallet` topic) of one settle currency, in its minor units. */
export function walletJson(b: BalanceView, account: number, now: number) {
  return { account, currency: b.currency, amount: minor(b.wallet, b.currency), pendingCredit: 0, pendingDebit: 0, confirmedDebit: 0, timestamp: iso(now) };
}

const num = (s: string | null) => (s === null ? null : Number(s));

/**
 * An Order as the `order` topic prints it (ws-order-insert.json, real): the REST order with the account,
 * quantities and prices as JSON numbers, and the fields the stream adds.
 */
export function orderRow(spec: InstrumentSpec, tag: string, o: OrderRecord, account: number) {
  const j = orderJson(spec, tag, o, String(account));
  return {
    ...j,
    account,
    simpleOrderQty: null,
    orderQty: Number(j.orderQty),
    price: num(j.price),
    stopPx: num(j.stopPx),
    exDestination: 'XBME',
    simpleLeavesQty: null,
    leavesQty: Number(j.leavesQty),
    simpleCumQty: null,
    cumQty: Number(j.cumQty),
    avgPx: num(j.avgPx),
    multiLegReportingType: 'SingleSecurity',
  };
}

/** An execution as the `execution` topic prints it (the account as a number, as on every stream row). */
export function executionRow(spec: InstrumentSpec, tag: string, f: FillRecord, o: OrderRecord | undefined, account: number) {
  return { ...executionJson(spec, tag, f, o, String(account)), account };
}
