import { fixed, type BalanceView, type InstrumentSpec, type MarginMode } from '../engine';
import { bool, decimal, oneOf } from '../params';
import { applySettings, wholeOf } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { marginJson, positionJson, walletJson } from './format';
import { ids } from './orders';
import { BitmexError, instrumentOf, invalid, refusalError } from './params';
import { notePositionRows } from './stream';

const CURRENCIES = ['XBt', 'USDt'] as const;

/** An empty wallet's view (a currency the account never held). */
const EMPTY = { wallet: '0', crossWallet: '0', unrealisedPnl: '0', crossUnrealisedPnl: '0', marginBalance: '0', positionMargin: '0', orderMargin: '0', maintMargin: '0', available: '0' };
const walletOf = (list: BalanceView[], currency: string): BalanceView => list.find((x) => x.currency === currency) ?? { currency, ...EMPTY };

async function positions({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { accountNo } = ids(venue, account);
  const filter = p.json('filter') ?? {};
  const symbol = typeof filter.symbol === 'string' ? instrumentOf(venue, filter.symbol).symbol : undefined;
  // A symbol's position row, flat or not (BitMEX lists a symbol once it was traded).
  const openOnly = filter.isOpen === true || symbol === undefined;
  const rows = await runtime.run(account, (id) => engine.positions(id, symbol).filter((v) => !openOnly || fixed(v.size) !== 0n));
  return rows.map((v) => positionJson(engine.instrument(v.symbol)!, v, accountNo));
}

/** Applies an instrument's margin mode (and leverage), then answers its position row. */
async function settle({ venue, runtime, engine, account }: SignedCall, spec: InstrumentSpec, want: { mode: MarginMode; leverage?: number }) {
  const r = await runtime.run(account, (id, at) => {
    const refusal = applySettings(engine, id, spec.symbol, at, want);
    return refusal ? { ok: false as const, refusal } : { ok: true as const, position: engine.positions(id, spec.symbol)[0] };
  });
  if (!r.ok) throw refusalError(r.refusal);
  const row = positionJson(spec, r.position, ids(venue, account).accountNo);
  // BitMEX's `position` topic shows the change, also on a flat symbol (the engine's event names none there).
  notePositionRows(venue, account, [row]);
  return row;
}

async function setLeverage(call: SignedCall) {
  const spec = instrumentOf(call.venue, call.params.opt('symbol'));
  const { leverage, crossLeverage: cross } = call.params.read({ leverage: decimal(), crossLeverage: decimal() });
  if (leverage === undefined && cross === undefined) throw invalid("'leverage' is required");
  const wanted = cross ?? leverage!;
  // The engine keeps whole leverages; 0 (cross) keeps the current one.
  const n = wholeOf(wanted);
  if (n === null) throw invalid('Invalid leverage: the paper exchange keeps whole leverages');
  return settle(call, spec, { mode: cross !== undefined || n === 0 ? 'cross' : 'isolated', leverage: n > 0 ? n : undefined });
}

async function isolate(call: SignedCall) {
  const spec = instrumentOf(call.venue, call.params.opt('symbol'));
  const { enabled } = call.params.read({ enabled: bool({ default: true }) });
  return settle(call, spec, { mode: enabled ? 'isolated' : 'cross' });
}

async function margins({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { accountNo } = ids(venue, account);
  const { currency } = p.read({ currency: oneOf([...CURRENCIES, 'all'] as const, { default: 'XBt', invalid: (c) => new BitmexError(404, `Unknown currency: ${c}`) }) });
  const r = await runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));
  const rows = CURRENCIES.filter((c) => currency === 'all' || c === currency).map((c) => marginJson(walletOf(r.list, c), accountNo, r.now));
  return currency === 'all' ? rows : rows[0];
}

async function wallet({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { accountNo } = ids(venue, account);
  const currency = p.opt('currency') ?? 'XBt';
  const r = await runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));
  return walletJson(walletOf(r.list, currency), accountNo, r.now);
}

/**
 * `/api/v1/position` (GET), `/position/leverage`, `/position/isolate`, `/user/margin` (XBt, USDt,
 * all) and `/user/wallet`. Leverage follows BitMEX: a number sets isolated margin at that leverage,
 * 0 switches to cross; `crossLeverage` sets the cross leverage and keeps cross.
 */
export const BITMEX_ACCOUNT_ROUTES: RouteGroup = [
  { method: 'GET', url: '/api/v1/position', handler: positions },
  { method: 'POST', url: '/api/v1/position/leverage', trade: true, handler: setLeverage },
  { method: 'POST', url: '/api/v1/position/isolate', trade: true, handler: isolate },
  { method: 'GET', url: '/api/v1/user/margin', handler: margins },
  { method: 'GET', url: '/api/v1/user/wallet', handler: wallet },
];
