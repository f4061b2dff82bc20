import { fixed, type InstrumentSpec, type OrderRecord, type PlaceRequest } from '../engine';
import { bool, decimal, oneOf, type Params } from '../params';
import type { RouteGroup, SignedCall } from '../signed';
import { attachMeta } from './attached';
import { algoIdOf, algoJson, isAlgo, parseAlgoId } from './format';
import { CL_ORD_ID, idBound, LIMIT, placeIn, POS_SIDE, SIDE, TAG } from './orders';
import { instrumentOf, itemError, missing, paramError, refusalError } from './params';

const NOT_SIMULATED = ['oco', 'move_order_stop', 'twap', 'chase'];

const ALGO = {
  tdMode: oneOf(['cross', 'isolated'] as const, { required: true }),
  side: SIDE,
  posSide: POS_SIDE,
  ordType: oneOf(['conditional', 'trigger'] as const, {
    required: true,
    invalid: (t) => (NOT_SIMULATED.includes(t) ? itemError('51000', `Parameter ordType error: ${t} is not simulated`) : paramError('ordType')),
  }),
  sz: decimal(),
};

/** The trigger, the order price ('-1': market) and whether it is a stop, of a `trigger` or `conditional` algo. */
async function triggerOf({ runtime, engine, account }: SignedCall, p: Params, spec: InstrumentSpec, ordType: 'conditional' | 'trigger', side: 'BUY' | 'SELL') {
  if (ordType === 'trigger') {
    const { triggerPx: trigger } = p.read({ triggerPx: decimal({ required: true }) });
    const orderPx = p.req('orderPx');
    // A trigger order is a stop when it buys above / sells below the market.
    const last = await runtime.run(account, (_id, at) => engine.lastPrice(spec.symbol, at));
    const stop = last === null ? true : side === 'BUY' ? fixed(trigger) >= fixed(last) : fixed(trigger) <= fixed(last);
    return { trigger, orderPx, stop };
  }
  const { slTriggerPx: sl, tpTriggerPx: tp } = p.read({ slTriggerPx: decimal(), tpTriggerPx: decimal() });
  if (sl !== undefined && tp !== undefined) throw itemError('51000', 'Parameter ordType error: one-way TP and SL in one order is not simulated; place two');
  if (sl === undefined && tp === undefined) throw missing('slTriggerPx');
  const stop = sl !== undefined;
  return { trigger: sl ?? tp, orderPx: p.opt(stop ? 'slOrdPx' : 'tpOrdPx') ?? '-1', stop };
}

async function placeAlgo(call: SignedCall) {
  const { venue, params: p, account } = call;
  const spec = instrumentOf(venue, p.opt('instId'));
  const a = p.read(ALGO);
  if (a.sz === undefined && p.opt('closeFraction') !== '1') throw missing('sz');
  const { algoClOrdId: cl, reduceOnly, tag } = p.read({ algoClOrdId: CL_ORD_ID('algoClOrdId'), reduceOnly: bool({ default: false }), tag: TAG });
  const side = a.side === 'buy' ? 'BUY' : 'SELL';
  const { trigger, orderPx, stop } = await triggerOf(call, p, spec, a.ordType, side);
  const market = orderPx === '-1';
  if (!market && !p.dialect.decimal.test(orderPx)) throw itemError('51000', 'Parameter orderPx error');
  const req: PlaceRequest = {
    symbol: spec.symbol,
    side,
    type: stop ? (market ? 'STOP_MARKET' : 'STOP_LIMIT') : market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT',
    qty: a.sz,
    price: market ? undefined : orderPx,
    trigger,
    reduceOnly: reduceOnly || a.ordType === 'conditional',
    closePosition: a.sz === undefined,
    clientId: cl,
    meta: { okxOrdType: a.ordType, tdMode: a.tdMode, ...(tag ? { tag } : {}), ...(a.ordType === 'trigger' ? attachMeta(p) : {}) },
  };
  const placed = await placeIn(call, account, req, a.tdMode);
  if (!placed.ok) throw refusalError(placed.refusal, { algoClOrdId: cl ?? '' });
  return [{ algoId: algoIdOf(placed.value), algoClOrdId: cl ?? '', clOrdId: '', tag: tag ?? '', sCode: '0', sMsg: '' }];
}

/** The algo order an `algoId` / `algoClOrdId` names. */
function algoOf({ engine }: SignedCall, id: string, p: Params): OrderRecord | undefined {
  const algoId = p.opt('algoId');
  const cl = p.opt('algoClOrdId');
  if (algoId === undefined && cl === undefined) throw missing('algoId');
  const n = parseAlgoId(algoId);
  return engine.retained(id).find((o) => isAlgo(o) && (algoId !== undefined ? o.id === n : o.clientId === cl));
}

async function getAlgo(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const r = await runtime.run(account, (id, at) => {
    const o = algoOf(call, id, p);
    return o ? { o, last: engine.lastPrice(o.symbol, at) } : null;
  });
  if (!r) throw itemError('51603', 'Order does not exist.');
  return [algoJson(engine.instrument(r.o.symbol)!, r.o, r.last)];
}

async function cancelAlgos(call: SignedCall) {
  const { items, runtime, engine, account } = call;
  if (items.length === 0) throw missing('algoId');
  const results = await runtime.run(account, (id, at) =>
    items.map((p) => {
      const o = algoOf(call, id, p);
      if (!o || o.status !== 'UNTRIGGERED') return { p, ok: false as const };
      const c = engine.cancel(id, { id: o.id }, at);
      return { p, ok: c.ok, o };
    }),
  );
  const failed = results.find((x) => !x.ok);
  if (failed) throw itemError('51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.', { algoId: failed.p.opt('algoId') ?? '' });
  return results.map((x) => ({ algoId: x.p.opt('algoId') ?? '', algoClOrdId: x.p.opt('algoClOrdId') ?? '', sCode: '0', sMsg: '' }));
}

/** `orders-algo-pending` (waiting) and `orders-algo-history` (fired, cancelled): newest first. */
const listAlgos = (pending: boolean) =>
  async function ({ venue, params: p, runtime, engine, account }: SignedCall) {
    const types = p.req('ordType').split(',');
    const instId = p.opt('instId');
    if (instId !== undefined) instrumentOf(venue, instId);
    const state = p.opt('state');
    const rows = await runtime.run(account, (id, at) =>
      engine
        .retained(id)
        .filter((o) => isAlgo(o) && (instId === undefined || o.symbol === instId) && types.includes(o.meta.okxOrdType ?? 'trigger') && (pending ? o.status === 'UNTRIGGERED' : o.status !== 'UNTRIGGERED'))
        .map((o) => ({ o, last: engine.lastPrice(o.symbol, at) })),
    );
    const out = rows.map(({ o, last }) => algoJson(engine.instrument(o.symbol)!, o, last)).filter((j) => state === undefined || j.state === state);
    out.sort((a, b) => Number(BigInt(b.algoId) - BigInt(a.algoId)));
    const { limit } = p.read({ limit: LIMIT });
    const after = idBound(p, 'after');
    return out.filter((j) => after === null || BigInt(j.algoId) < after()).slice(0, limit);
  };

/** The algo service: `conditional` (reduce-only SL / TP) and `trigger` orders. */
export const OKX_ALGO_ROUTES: RouteGroup = [
  { method: 'POST', url: '/api/v5/trade/order-algo', trade: true, handler: placeAlgo },
  { method: 'GET', url: '/api/v5/trade/order-algo', handler: getAlgo },
  { method: 'POST', url: '/api/v5/trade/cancel-algos', trade: true, handler: cancelAlgos },
  { method: 'GET', url: '/api/v5/trade/orders-algo-pending', handler: listAlgos(true) },
  { method: 'GET', url: '/api/v5/trade/orders-algo-history', handler: listAlgos(false) },
];
