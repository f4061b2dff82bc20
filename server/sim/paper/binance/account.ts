import { fixed, formatFixed, type AccountKey, type BalanceView } from '../engine';
import { int, oneOf } from '../params';
import type { RouteGroup, SignedCall } from '../signed';
import { BINANCE_INSTRUMENTS, BINANCE_MAKER_RATE, BINANCE_TAKER_RATE, binanceBrackets } from './economics';
import { balanceJson, positionRiskJson, positionRiskV2Json, type PositionExtras } from './format';
import { BinanceError, instrumentOf, refusalError } from './params';

const money = (v: bigint) => formatFixed(v, 8);
const maxBig0 = (v: bigint) => (v > 0n ? v : 0n);
/** What can be withdrawn: the available balance, at most the cross wallet, never below 0. */
const withdrawable = (b: BalanceView) => maxBig0(fixed(b.available) < fixed(b.crossWallet) ? fixed(b.available) : fixed(b.crossWallet));

/** Largest position value the leverage allows (the cap of the last bracket that permits it). */
function maxNotional(symbol: string, leverage: number): string {
  const allowed = (binanceBrackets(symbol) ?? []).filter((b) => b.maxLeverage >= leverage);
  return allowed.length ? (allowed[allowed.length - 1].cap ?? '0') : '0';
}

/** Positions with a size or open orders (Binance lists only those), with their order margins and notionals. */
function positions({ runtime, engine }: SignedCall, account: AccountKey, symbol: string | undefined) {
  return runtime.run(account, (id) => {
    const symbols = symbol !== undefined ? [symbol] : engine.symbols(id);
    return symbols.map((s) => {
      const [p] = engine.positions(id, s);
      const spec = engine.instrument(s)!;
      const extras: PositionExtras = { orderMargin: 0n, bidNotional: 0n, askNotional: 0n, maxNotional: maxNotional(s, p.leverage) };
      for (const o of engine.openOrders(id, s)) {
        if (o.price === null || o.status === 'UNTRIGGERED') continue;
        const notional = (fixed(o.price) * (fixed(o.qty) - fixed(o.filledQty))) / 10n ** 18n;
        if (o.side === 'BUY') extras.bidNotional += notional;
        else extras.askNotional += notional;
        if (!o.reduceOnly) extras.orderMargin += notional / BigInt(p.leverage);
      }
      return { spec, p, extras };
    });
  });
}

const balances = ({ runtime, engine, account }: SignedCall) => runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));

async function balance(call: SignedCall) {
  const { list, now } = await balances(call);
  return list.map((b) => balanceJson(call.apiKey, b, now));
}

const positionRisk = (v: 'v2' | 'v3') =>
  async function (call: SignedCall) {
    const symbol = call.params.opt('symbol');
    if (symbol !== undefined) instrumentOf(call.venue, symbol);
    const all = await positions(call, call.account, symbol);
    // v3 lists only symbols with a position or open orders, a named one too (binance.md §6); v2 every asked one.
    const rows = v === 'v2' ? all : all.filter(({ p, extras }) => fixed(p.size) !== 0n || extras.bidNotional + extras.askNotional > 0n);
    return rows.map(({ spec, p, extras }) => (v === 'v2' ? positionRiskV2Json(spec, p, extras) : positionRiskJson(spec, p, extras)));
  };

type RiskRow = ReturnType<typeof positionRiskJson>;

const account = (v: 'v2' | 'v3') =>
  async function (call: SignedCall) {
    const { list, now } = await balances(call);
    const rows = (await positions(call, call.account, undefined)).map(({ spec, p, extras }) => positionRiskJson(spec, p, extras));
    return accountJson(v, list, rows, now);
  };

/** `/fapi/v3|v2/account`: totals over the wallets, one asset row per wallet, the positions' margins. */
function accountJson(v: 'v2' | 'v3', list: BalanceView[], rows: RiskRow[], now: number) {
  const sum = (f: (b: BalanceView) => string) => list.reduce((a, b) => a + fixed(f(b)), 0n);
  const openIm = rows.reduce((a, r) => a + fixed(r.openOrderInitialMargin), 0n);
  const posIm = rows.reduce((a, r) => a + fixed(r.positionInitialMargin), 0n);
  return {
    ...(v === 'v2' ? { feeTier: 0, feeBurn: false, canTrade: true, canDeposit: true, canWithdraw: true, updateTime: 0, multiAssetsMargin: false, tradeGroupId: -1 } : {}),
    totalInitialMargin: money(openIm + posIm),
    totalMaintMargin: money(sum((b) => b.maintMargin)),
    totalWalletBalance: money(sum((b) => b.wallet)),
    totalUnrealizedProfit: money(sum((b) => b.unrealisedPnl)),
    totalMarginBalance: money(sum((b) => b.marginBalance)),
    totalPositionInitialMargin: money(posIm),
    totalOpenOrderInitialMargin: money(openIm),
    totalCrossWalletBalance: money(sum((b) => b.crossWallet)),
    totalCrossUnPnl: money(sum((b) => b.crossUnrealisedPnl)),
    availableBalance: money(sum((b) => b.available)),
    maxWithdrawAmount: money(list.reduce((a, b) => a + withdrawable(b), 0n)),
    assets: list.map((b) => ({
      asset: b.currency,
      walletBalance: money(fixed(b.wallet)),
      unrealizedProfit: money(fixed(b.unrealisedPnl)),
      marginBalance: money(fixed(b.marginBalance)),
      maintMargin: money(fixed(b.maintMargin)),
      initialMargin: money(openIm + posIm),
      positionInitialMargin: money(posIm),
      openOrderInitialMargin: money(openIm),
      crossWalletBalance: money(fixed(b.crossWallet)),
      crossUnPnl: money(fixed(b.crossUnrealisedPnl)),
      availableBalance: money(fixed(b.available)),
      maxWithdrawAmount: money(withdrawable(b)),
      ...(v === 'v2' ? { marginAvailable: true } : {}),
      updateTime: now,
    })),
    positions: rows.map((r) => ({
      symbol: r.symbol,
      positionSide: 'BOTH',
      positionAmt: r.positionAmt,
      unrealizedProfit: r.unRealizedProfit,
      isolatedMargin: r.isolatedMargin,
      notional: r.notional,
      isolatedWallet: r.isolatedWallet,
      initialMargin: r.initialMargin,
      maintMargin: r.maintMargin,
      updateTime: r.updateTime,
    })),
  };
}

async function setLeverage({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  const { leverage } = p.read({ leverage: int({ required: true }) });
  const r = await runtime.run(account, (id, at) => engine.setLeverage(id, spec.symbol, leverage, at));
  if (!r.ok) {
    if (r.refusal.code === 'leverage-out-of-range') throw new BinanceError(-4028, `Leverage ${leverage} is not valid`);
    throw refusalError(r.refusal, 'settings');
  }
  return { leverage: r.value.leverage, maxNotionalValue: maxNotional(spec.symbol, r.value.leverage), symbol: spec.symbol };
}

async function setMarginType({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  const { marginType } = p.read({ marginType: oneOf(['ISOLATED', 'CROSSED'] as const, { required: true }) });
  const r = await runtime.run(account, (id, at) => engine.setMarginMode(id, spec.symbol, marginType === 'ISOLATED' ? 'isolated' : 'cross', at));
  if (!r.ok) throw refusalError(r.refusal, 'settings');
  return { code: 200, msg: 'success' };
}

async function leverageBracket({ venue, params: p }: SignedCall) {
  const symbol = p.opt('symbol');
  const one = (s: string) => ({
    symbol: s,
    notionalCoef: 1.0,
    brackets: (binanceBrackets(s) ?? []).map((b, i) => ({
      bracket: i + 1,
      initialLeverage: b.maxLeverage,
      notionalCap: Number(b.cap),
      notionalFloor: Number(b.floor),
      maintMarginRatio: Number(b.maintenanceRate),
      cum: Number(b.deduction),
    })),
  });
  if (symbol !== undefined) return one(instrumentOf(venue, symbol).symbol);
  return BINANCE_INSTRUMENTS.symbols().map(one);
}

async function commissionRate({ venue, params: p }: SignedCall) {
  return { symbol: instrumentOf(venue, p.opt('symbol')).symbol, makerCommissionRate: BINANCE_MAKER_RATE, takerCommissionRate: BINANCE_TAKER_RATE };
}

const answer = (body: unknown) => async () => body;

/**
 * Balances, account, positions and per-symbol settings: `/fapi/v3|v2/balance`, `/fapi/v3|v2/account`,
 * `/fapi/v3|v2/positionRisk`, `/fapi/v1/leverage`, `/fapi/v1/marginType`, `/fapi/v1/leverageBracket`,
 * `/fapi/v1/commissionRate`, `/fapi/v1/positionSide/dual`, `/fapi/v1/multiAssetsMargin` (ccxt asks).
 */
export const BINANCE_ACCOUNT_ROUTES: RouteGroup = [
  ...(['v2', 'v3'] as const).flatMap((v) => [
    { method: 'GET' as const, url: `/fapi/${v}/balance`, handler: balance },
    { method: 'GET' as const, url: `/fapi/${v}/positionRisk`, handler: positionRisk(v) },
    { method: 'GET' as const, url: `/fapi/${v}/account`, handler: account(v) },
  ]),
  { method: 'POST', url: '/fapi/v1/leverage', trade: true, handler: setLeverage },
  { method: 'POST', url: '/fapi/v1/marginType', trade: true, handler: setMarginType },
  { method: 'GET', url: '/fapi/v1/leverageBracket', handler: leverageBracket },
  { method: 'GET', url: '/fapi/v1/commissionRate', handler: commissionRate },
  { method: 'GET', url: '/fapi/v1/positionSide/dual', handler: answer({ dualSidePosition: false }) },
  { method: 'GET', url: '/fapi/v1/multiAssetsMargin', handler: answer({ multiAssetsMargin: false }) },
];
