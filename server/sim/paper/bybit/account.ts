import { fixed, formatFixed, type AccountKey, type FillRecord, type OrderRecord } from '../engine';
import { decimal, oneOf } from '../params';
import { ordersOfFills, settledHistory, wholeOf } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import type { PaperStore } from '../store';
import { BYBIT_INSTRUMENTS, BYBIT_MAKER_RATE, BYBIT_TAKER_RATE, bybitSymbols } from './economics';
import { executionJson, positionJson, qtyOf, walletJson } from './format';
import { BybitError, CATEGORY, instrumentOf, missing, paramError, refusalError } from './params';
import { byRef, findOrders, orderRefOf, page, scopeOf, timeWindow } from './shared';
import { tpslOf } from './tpsl';

/** The account-wide margin mode: every symbol is switched together, so any one of them tells it. */
const modeSymbol = () => bybitSymbols()[0];
const MARGIN_MODE = oneOf(['ISOLATED_MARGIN', 'REGULAR_MARGIN'] as const, {
  required: true,
  invalid: (mode) =>
    mode === 'PORTFOLIO_MARGIN'
      ? new BybitError(3400045, 'Set margin mode failed', { reasons: [{ reasonCode: '3400071', reasonMsg: 'Portfolio margin is not simulated by the paper exchange' }] })
      : paramError('setMarginMode'),
});
const EXEC_TYPES = ['Trade', 'AdlTrade', 'Funding', 'BustTrade', 'Delivery', 'Settle', 'BlockTrade', 'MovePosition', 'FutureSpread', 'CorporateAction'] as const;

async function positionList(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const { category, symbol, symbols } = scopeOf(call);
  if (category === 'linear' && !symbols) throw new BybitError(10001, 'Missing some parameters that must be filled in, symbol or settleCoin');
  const rows = await runtime.run(account, (id, now) => {
    // With a symbol: that position even when flat; otherwise the open ones.
    const views = symbol !== undefined ? engine.positions(id, symbol) : engine.positions(id).filter((v) => engine.instrument(v.symbol)?.category === category && (!symbols || symbols.has(v.symbol)));
    return views.map((v) => ({ v, mark: fixed(v.markPrice) !== 0n ? v.markPrice : (engine.lastPrice(v.symbol, now) ?? v.markPrice), tpsl: tpslOf(engine, id, v.symbol) }));
  });
  const { rows: list, nextPageCursor } = page(rows, p, 200, 20);
  return { list: list.map(({ v, mark, tpsl }) => positionJson(engine.instrument(v.symbol)!, v, mark, tpsl)), nextPageCursor, category };
}

async function setLeverage({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { category } = p.read({ category: CATEGORY });
  const spec = instrumentOf(venue, p.opt('symbol'), category);
  const { buyLeverage: buy, sellLeverage: sell } = p.read({ buyLeverage: decimal(), sellLeverage: decimal() });
  if (buy === undefined) throw missing('buyLeverage');
  if (sell === undefined) throw missing('sellLeverage');
  if (fixed(buy) !== fixed(sell)) throw new BybitError(10001, 'buy leverage must be equal to sell leverage in one-way mode');
  // The engine keeps whole leverages (Bybit's leverageStep is 0.01).
  const leverage = wholeOf(buy);
  if (leverage === null) throw new BybitError(10001, 'leverage invalid');
  const r = await runtime.run(account, (id, at) => (engine.settings(id, spec.symbol).leverage === leverage ? null : engine.setLeverage(id, spec.symbol, leverage, at)));
  if (!r) throw new BybitError(110043, 'Set leverage has not been modified.');
  if (!r.ok) {
    if (r.refusal.code === 'insufficient-margin') throw new BybitError(110044, 'Available margin is insufficient.');
    if (r.refusal.code === 'position-limit-exceeded') throw new BybitError(110013, 'Cannot set leverage due to risk limit level.');
    throw refusalError(r.refusal);
  }
  return {};
}

/** What was left of each order after each of its fills (by fill id). */
async function leavesAfter(store: PaperStore, dbId: string, fills: FillRecord[], orders: Map<number, OrderRecord>): Promise<Map<number, bigint>> {
  const leaves = new Map<number, bigint>();
  for (const orderId of new Set(fills.map((f) => f.orderId))) {
    const o = orders.get(orderId);
    if (!o) continue;
    let left = fixed(o.qty);
    for (const f of (await store.fills(dbId, { orderId, limit: 10_000 })).sort((a, b) => a.id - b.id)) {
      left -= fixed(f.qty);
      leaves.set(f.id, left < 0n ? 0n : left);
    }
  }
  return leaves;
}

async function executionList(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const { category, symbols } = scopeOf(call);
  const ref = orderRefOf(p, account, false);
  const { execType } = p.read({ execType: oneOf(EXEC_TYPES) });
  const { startTime, endTime } = timeWindow(p, runtime.now());
  const { store, dbId } = await settledHistory(call);
  // orderId / orderLinkId win over every other filter (execution.mdx).
  let fills: FillRecord[];
  if (byRef(ref)) {
    const orders = await findOrders(call, ref);
    fills = (await Promise.all(orders.map((o) => store.fills(dbId, { orderId: o.id, limit: 1000 })))).flat();
  } else {
    fills = await store.fills(dbId, { symbol: symbols && symbols.size === 1 ? [...symbols][0] : undefined, startTime, endTime, limit: 1000, newest: true });
  }
  fills = fills.filter((f) => {
    if (engine.instrument(f.symbol)?.category !== category) return false;
    if (!byRef(ref) && symbols && !symbols.has(f.symbol)) return false;
    return execType === undefined || execType === (f.liquidation ? 'BustTrade' : 'Trade');
  });
  fills.sort((a, b) => b.time - a.time || b.id - a.id);
  const { rows, nextPageCursor } = page(fills, p, 100, 50);
  const orders = await ordersOfFills(store, dbId, rows);
  const leaves = await leavesAfter(store, dbId, rows, orders);
  const list = rows.map((f) => {
    const spec = engine.instrument(f.symbol)!;
    const leavesQty = qtyOf(spec, formatFixed(leaves.get(f.id) ?? 0n, 18));
    return executionJson(f, { spec, account, order: orders.get(f.orderId), leavesQty, markPrice: engine.lastPrice(f.symbol, f.time) ?? f.price, closedSize: '' });
  });
  return { nextPageCursor, category, list };
}

const walletOf = ({ runtime, engine }: SignedCall, account: AccountKey, coins: Set<string> | null) =>
  runtime.run(account, (id, now) =>
    engine
      .balances(id)
      .filter((b) => (coins ? coins.has(b.currency) : fixed(b.wallet) !== 0n || fixed(b.unrealisedPnl) !== 0n))
      .map((balance) => ({ balance, usd: BYBIT_INSTRUMENTS.usdPrice(engine, balance.currency, now) })),
  );

async function walletBalance(call: SignedCall) {
  const { params: p, account } = call;
  p.read({ accountType: oneOf(['UNIFIED'] as const, { required: true, invalid: () => new BybitError(10001, 'accountType only support UNIFIED.') }) });
  const coin = p.opt('coin');
  const coins = coin === undefined ? null : new Set(coin.split(','));
  return { list: [walletJson(await walletOf(call, account, coins))] };
}

async function accountInfo({ runtime, engine, account }: SignedCall) {
  const { mode, updated } = await runtime.run(account, (id) => ({ mode: engine.settings(id, modeSymbol()).marginMode, updated: runtime.now() }));
  return {
    marginMode: mode === 'isolated' ? 'ISOLATED_MARGIN' : 'REGULAR_MARGIN',
    updatedTime: String(updated),
    unifiedMarginStatus: 5,
    dcpStatus: 'OFF',
    timeWindow: 0,
    smpGroup: 0,
    isMasterTrader: false,
    spotHedgingStatus: 'OFF',
  };
}

// Account-wide (bybit.md §6, trap 24): every symbol of both categories switches together; it needs
// no open orders and no positions (3400045 with the reasons).
async function setMarginMode({ params: p, runtime, engine, account }: SignedCall) {
  const { setMarginMode: mode } = p.read({ setMarginMode: MARGIN_MODE });
  const target = mode === 'ISOLATED_MARGIN' ? 'isolated' : 'cross';
  const refusal = await runtime.run(account, (id, at) => {
    if (engine.openOrders(id).length > 0) return refusalError({ code: 'open-orders-exist', message: '' });
    if (engine.positions(id).length > 0) return refusalError({ code: 'position-exists', message: '' });
    for (const s of bybitSymbols()) if (engine.settings(id, s).marginMode !== target) engine.setMarginMode(id, s, target, at);
    return null;
  });
  if (refusal) throw refusal;
  return { reasons: [] };
}

async function feeRate({ venue, params: p }: SignedCall) {
  const { category } = p.read({ category: CATEGORY });
  const symbol = p.opt('symbol');
  const list = symbol !== undefined ? [instrumentOf(venue, symbol, category).symbol] : BYBIT_INSTRUMENTS.symbols(category);
  return { list: list.map((s) => ({ symbol: s, takerFeeRate: BYBIT_TAKER_RATE, makerFeeRate: BYBIT_MAKER_RATE })) };
}

async function coinInfo({ params: p }: SignedCall) {
  const coin = p.opt('coin');
  const coins = [...new Set(BYBIT_INSTRUMENTS.instruments().flatMap((i) => [i.base.replace(/^1000/, ''), i.quote, i.settle]))].filter((c) => c !== 'USD').sort();
  const rows = coins.filter((c) => coin === undefined || c === coin).map((c) => ({ name: c, coin: c, remainAmount: '10000000', chains: [] }));
  return { rows };
}

/**
 * Positions, executions, leverage, the unified wallet and the account settings:
 * `/v5/position/list|set-leverage`, `/v5/execution/list`, `/v5/account/wallet-balance|info|set-margin-mode|fee-rate`,
 * and `/v5/asset/coin/query-info` (ccxt loads currencies from it when it has API keys).
 */
export const BYBIT_ACCOUNT_ROUTES: RouteGroup = [
  { method: 'GET', url: '/v5/position/list', handler: positionList },
  { method: 'POST', url: '/v5/position/set-leverage', trade: true, handler: setLeverage },
  { method: 'GET', url: '/v5/execution/list', handler: executionList },
  { method: 'GET', url: '/v5/account/wallet-balance', handler: walletBalance },
  { method: 'GET', url: '/v5/account/info', handler: accountInfo },
  { method: 'POST', url: '/v5/account/set-margin-mode', trade: true, handler: setMarginMode },
  { method: 'GET', url: '/v5/account/fee-rate', handler: feeRate },
  { method: 'GET', url: '/v5/asset/coin/query-info', handler: coinInfo },
];
