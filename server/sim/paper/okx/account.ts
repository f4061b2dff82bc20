import { fixed } from '../engine';
import { decimal, oneOf } from '../params';
import { applySettings, wholeOf } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { OKX_INSTRUMENTS } from './economics';
import { balanceJson, positionJson } from './format';
import { instrumentOf, OkxError, paramError, refusalError } from './params';

const MGN_MODE = oneOf(['cross', 'isolated'] as const, { required: true });

async function positions({ venue, params: p, runtime, engine, account }: SignedCall) {
  const instType = p.opt('instType');
  if (instType !== undefined && instType !== 'SWAP') return [];
  const instIds = p.opt('instId')?.split(',');
  for (const i of instIds ?? []) instrumentOf(venue, i);
  const rows = await runtime.run(account, (id, now) =>
    engine
      .positions(id)
      .filter((v) => fixed(v.size) !== 0n && (!instIds || instIds.includes(v.symbol)))
      .map((v) => ({ v, last: engine.lastPrice(v.symbol, now) ?? v.markPrice })),
  );
  return rows.map(({ v, last }) => positionJson(engine.instrument(v.symbol)!, v, last));
}

async function balance({ params: p, runtime, engine, account }: SignedCall) {
  const ccys = p.opt('ccy')?.split(',');
  const r = await runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));
  const list = r.list.filter((b) => (ccys ? ccys.includes(b.currency) : fixed(b.wallet) !== 0n || fixed(b.unrealisedPnl) !== 0n));
  return [balanceJson(list, (c) => OKX_INSTRUMENTS.usdPrice(engine, c, r.now), r.now)];
}

async function setLeverage({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('instId'));
  const { lever, mgnMode } = p.read({ lever: decimal({ required: true }), mgnMode: MGN_MODE, posSide: oneOf(['net'] as const) });
  // The engine keeps whole leverages (OKX accepts 0.01 steps).
  const n = wholeOf(lever);
  if (n === null || n === 0) throw new OkxError('51000', 'Parameter lever error');
  const refusal = await runtime.run(account, (id, at) => applySettings(engine, id, spec.symbol, at, { mode: mgnMode, leverage: n }));
  if (refusal) {
    if (refusal.code === 'leverage-out-of-range') throw new OkxError('59102', `Leverage exceeds the maximum leverage. Adjust the leverage (maximum ${spec.maxLeverage}×).`);
    if (refusal.code === 'insufficient-margin') throw new OkxError('51008', 'Order failed. Insufficient USDT margin in account');
    throw refusalError(refusal);
  }
  return [{ lever: String(n), mgnMode, instId: spec.symbol, posSide: 'net' }];
}

async function leverageInfo({ venue, params: p, runtime, engine, account }: SignedCall) {
  const instIds = p.req('instId').split(',');
  const { mgnMode } = p.read({ mgnMode: MGN_MODE });
  const specs = instIds.map((i) => instrumentOf(venue, i));
  const rows = await runtime.run(account, (id) => specs.map((s) => ({ s, lev: engine.settings(id, s.symbol).leverage })));
  return rows.map(({ s, lev }) => ({ instId: s.symbol, mgnMode, posSide: 'net', lever: String(lev) }));
}

// ccxt loads currencies with the key (funding account): the settle coins the paper exchange holds.
async function currencies() {
  return [
    ['USDT', 'Tether', 'USDT-TRC20', '6'],
    ['BTC', 'Bitcoin', 'BTC-Bitcoin', '8'],
  ].map(([ccy, name, chain, tick]) => ({ ccy, name, chain, canDep: false, canWd: false, canInternal: false, minDep: '0', minWd: '0', maxWd: '0', wdTickSz: tick, minFee: '0', maxFee: '0', mainNet: true, needTag: false, logoLink: '' }));
}

async function setPositionMode({ params: p }: SignedCall) {
  const { posMode } = p.read({
    posMode: oneOf(['net_mode'] as const, {
      required: true,
      invalid: (m) => (m === 'long_short_mode' ? new OkxError('51000', 'Parameter posMode error: the paper exchange trades in net mode only') : paramError('posMode')),
    }),
  });
  return [{ posMode }];
}

/**
 * `/api/v5/account/*`: positions, balance, set-leverage, leverage-info, set-position-mode (net only),
 * and `/api/v5/asset/currencies`. (`account/config` is the signed-key check in private/okx.ts.)
 */
export const OKX_ACCOUNT_ROUTES: RouteGroup = [
  { method: 'GET', url: '/api/v5/account/positions', handler: positions },
  { method: 'GET', url: '/api/v5/account/balance', handler: balance },
  { method: 'POST', url: '/api/v5/account/set-leverage', trade: true, handler: setLeverage },
  { method: 'GET', url: '/api/v5/account/leverage-info', handler: leverageInfo },
  { method: 'GET', url: '/api/v5/asset/currencies', handler: currencies },
  { method: 'POST', url: '/api/v5/account/set-position-mode', trade: true, handler: setPositionMode },
];
