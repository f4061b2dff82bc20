import type { FastifyInstance } from 'fastify';
import type { AccountKey, OrderRecord, PaperEngine, PlaceRequest } from '../engine';
import type { VenueContext } from '../venue';
import { algoIdOf, algoJson, fillJson, isAlgo, ordIdOf, orderJson, parseAlgoId, parseOrdId } from './format';
import { instrumentOf, itemError, missing, OkxError, paramError, Params, refusalError, signed } from './params';

/** OKX `clOrdId` / `algoClOrdId`: letters and digits, 1–32 (trap 21). */
const CL_ORD_ID = /^[A-Za-z0-9]{1,32}$/;
const TD_MODES = ['cross', 'isolated'] as const;

const clientIdOf = (p: Params, name: string): string | undefined => {
  const v = p.opt(name);
  if (v !== undefined && !CL_ORD_ID.test(v)) throw itemError('51000', `Parameter ${name} error`);
  return v;
};

/** Net mode only: posSide omitted or `net` (long/short needs long_short_mode: 51000 as OKX answers). */
function checkPosSide(p: Params): void {
  const ps = p.opt('posSide');
  if (ps !== undefined && ps !== 'net') throw itemError('51000', 'Parameter posSide error');
}

const attachMeta = (list: Attached[]): Record<string, string> => (list.length ? { attach: JSON.stringify(list) } : {});

const isOpen = (o: OrderRecord) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' || o.status === 'UNTRIGGERED';

/** The order an `ordId` / `clOrdId` names among the account's orders (a waiting algo is not an order yet). */
function findOrder(engine: PaperEngine, id: string, p: Params): OrderRecord | undefined {
  const ordId = p.opt('ordId');
  const clOrdId = p.opt('clOrdId');
  if (ordId === undefined && clOrdId === undefined) throw missing('ordId');
  const n = parseOrdId(ordId);
  return engine.retained(id).find((o) => {
    if (isAlgo(o) && o.triggeredAt === null) return false;
    return ordId !== undefined ? n !== null && (isAlgo(o) ? o.releasedId === n : o.id === n) : !isAlgo(o) && o.clientId === clOrdId;
  });
}

/** Sets the symbol's margin mode to the order's `tdMode` when it differs (OKX chooses it per order). */
function applyTdMode(engine: PaperEngine, id: string, symbol: string, tdMode: string, at: number): OkxError | null {
  const mode = tdMode === 'isolated' ? 'isolated' : 'cross';
  if (engine.settings(id, symbol).marginMode === mode) return null;
  const r = engine.setMarginMode(id, symbol, mode, at);
  return r.ok ? null : itemError('51000', `Parameter tdMode error: ${symbol} has a ${engine.settings(id, symbol).marginMode} position or open orders`);
}

/** An attached TP or SL as kept on its parent order until the parent fills. */
interface Attached {
  type: PlaceRequest['type'];
  trigger: string;
  price?: string;
}

/** `attachAlgoOrds` → the protective orders to place once the parent fills (validated now). */
function attachedOf(p: Params): Attached[] {
  const list = p.values.attachAlgoOrds;
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.length > 10) throw paramError('attachAlgoOrds');
  const out: Attached[] = [];
  for (const raw of list) {
    const a = new Params((raw ?? {}) as Record<string, unknown>);
    for (const [kind, trig, ordPx] of [['tp', 'tpTriggerPx', 'tpOrdPx'], ['sl', 'slTriggerPx', 'slOrdPx']] as const) {
      const trigger = a.decimal(trig);
      if (trigger === undefined) continue;
      const orderPx = a.opt(ordPx) ?? '-1';
      const market = orderPx === '-1';
      if (!market && a.decimal(ordPx) === undefined) throw paramError(ordPx);
      out.push({ type: kind === 'tp' ? (market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT') : market ? 'STOP_MARKET' : 'STOP_LIMIT', trigger, ...(market ? {} : { price: orderPx }) });
    }
  }
  return out;
}

/**
 * Attached TP/SL are kept on the parent (`meta.attach`) and placed as reduce-only conditional orders
 * when the parent first fills (OKX activates them then), once: each carries `meta.parent`. The parent
 * is persisted with them, so a fill that happens while the server is down places them on the replay.
 */
export function watchAttached(venue: VenueContext): () => void {
  const { runtime } = venue;
  const engine = runtime.engine;
  return runtime.subscribe((account, events) => {
    if (account.network !== venue.network) return;
    const parents = events.filter((e) => e.type === 'order' && e.exec === 'fill' && e.order.meta.attach).map((e) => (e.type === 'order' ? e.order : null));
    if (!parents.length) return;
    void runtime
      .run(account, (id, at) => {
        for (const parent of parents) {
          if (!parent || engine.retained(id).some((o) => o.meta.parent === String(parent.id))) continue;
          const specs = JSON.parse(parent.meta.attach ?? '[]') as Attached[];
          for (const a of specs) {
            engine.place(
              id,
              {
                symbol: parent.symbol,
                side: parent.side === 'BUY' ? 'SELL' : 'BUY',
                type: a.type,
                qty: parent.qty,
                price: a.price,
                trigger: a.trigger,
                reduceOnly: true,
                meta: { okxOrdType: 'conditional', tdMode: parent.meta.tdMode ?? 'cross', parent: String(parent.id) },
                policy: { immediateTrigger: 'trigger' },
              },
              at,
            );
          }
        }
      })
      .catch(() => undefined);
  });
}

/**
 * `/api/v5/trade/*`: order, amend-order, cancel-order, orders-pending, orders-history, fills, and the
 * algo service (order-algo, cancel-algos, orders-algo-pending, orders-algo-history). Acks are OKX's
 * `{ ordId | algoId, clOrdId, sCode: "0", sMsg: "", ts }`; the state is read back or pushed.
 */
export function registerOkxOrders(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  /** One `trade/order` item → its ack (or a per-item OkxError). */
  const placeOne = async (p: Params, account: AccountKey) => {
        const instId = p.opt('instId');
        const spec = instrumentOf(venue, instId);
        const tdMode = p.oneOf('tdMode', [...TD_MODES, 'cash'] as const);
        if (tdMode === undefined) throw missing('tdMode');
        if (tdMode === 'cash') throw itemError('51000', 'Parameter tdMode error');
        const side = p.oneOf('side', ['buy', 'sell'] as const);
        if (!side) throw missing('side');
        const ordType = p.oneOf('ordType', ['market', 'limit', 'post_only', 'fok', 'ioc', 'optimal_limit_ioc'] as const);
        if (!ordType) throw missing('ordType');
        checkPosSide(p);
        const sz = p.decimal('sz');
        if (sz === undefined) throw missing('sz');
        const price = ordType === 'market' || ordType === 'optimal_limit_ioc' ? undefined : p.decimal('px');
        if (price === undefined && ordType !== 'market' && ordType !== 'optimal_limit_ioc') throw itemError('51000', 'Parameter px error');
        const clOrdId = clientIdOf(p, 'clOrdId');
        const reduceOnly = p.bool('reduceOnly') ?? false;
        const s = side === 'buy' ? 'BUY' : 'SELL';
        const req: PlaceRequest = {
          symbol: spec.symbol,
          side: s,
          type: price === undefined ? 'MARKET' : 'LIMIT',
          qty: sz,
          price,
          timeInForce: ordType === 'ioc' || ordType === 'optimal_limit_ioc' ? 'IOC' : ordType === 'fok' ? 'FOK' : 'GTC',
          postOnly: ordType === 'post_only',
          reduceOnly,
          clientId: clOrdId,
          meta: { tdMode, ...attachMeta(attachedOf(p)) },
        };
        const r = await runtime.run(account, (id, at) => {
          const modeErr = applyTdMode(engine, id, spec.symbol, tdMode, at);
          return modeErr ? { err: modeErr } : { placed: engine.place(id, req, at) };
        });
        if ('err' in r && r.err) throw r.err;
        const placed = r.placed!;
        if (!placed.ok) throw refusalError(placed.refusal, { clOrdId: clOrdId ?? '' });
        return { clOrdId: clOrdId ?? '', ordId: ordIdOf(placed.value), tag: '', ts: String(runtime.now()), sCode: '0', sMsg: '', subCode: '' };
        };

  app.post('/api/v5/trade/order', signed(venue, async ({ params: p, account }) => [await placeOne(p, account)], { trade: true }));

  // ccxt places single orders through the batch endpoint: up to 20 items, each answered on its own.
  app.post(
    '/api/v5/trade/batch-orders',
    signed(
      venue,
      async ({ items, account }) => {
        if (items.length === 0 || items.length > 20) throw paramError('batch');
        const out: Array<Record<string, unknown>> = [];
        for (const p of items) {
          try {
            out.push(await placeOne(p, account));
          } catch (err) {
            if (!(err instanceof OkxError)) throw err;
            out.push({ clOrdId: p.opt('clOrdId') ?? '', ordId: '', tag: '', ts: String(runtime.now()), sCode: err.item?.sCode ?? err.code, sMsg: err.item?.sMsg ?? err.msg });
          }
        }
        const failed = out.filter((x) => x.sCode !== '0').length;
        if (failed === out.length) throw new OkxError('1', 'All operations failed', undefined, 200, out);
        if (failed) throw new OkxError('2', 'Bulk operation partially succeeded.', undefined, 200, out);
        return out;
      },
      { trade: true },
    ),
  );

  app.get(
    '/api/v5/trade/order',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.opt('instId'));
      const found = await runtime.run(account, (id) => findOrder(engine, id, p) ?? null);
      let o = found;
      if (!o) {
        // Older than what is held in memory: the store.
        const n = parseOrdId(p.opt('ordId'));
        const store = await runtime.history();
        const dbId = await runtime.dbId(account);
        const rows = n !== null ? await store.ordersByIds(dbId, [n]) : (await store.orders(dbId, { symbol: spec.symbol, limit: 500, newest: true })).filter((x) => !isAlgo(x) && x.clientId === p.opt('clOrdId'));
        o = rows[0] ?? null;
      }
      if (!o || o.symbol !== spec.symbol) throw itemError('51603', 'Order does not exist.');
      return [orderJson(spec, o, { tdMode: o.meta.tdMode })];
    }),
  );

  app.post(
    '/api/v5/trade/amend-order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('instId'));
        const newSz = p.decimal('newSz');
        const newPx = p.decimal('newPx');
        if (newSz === undefined && newPx === undefined) throw itemError('51000', 'Parameter newSz or newPx error');
        const r = await runtime.run(account, (id, at) => {
          const o = findOrder(engine, id, p);
          if (!o || o.symbol !== spec.symbol || !isOpen(o)) return null;
          return { o, result: engine.amend(id, { id: o.id }, { qty: newSz, price: newPx }, at) };
        });
        const ids = { ordId: p.opt('ordId') ?? '', clOrdId: p.opt('clOrdId') ?? '', reqId: p.opt('reqId') ?? '' };
        if (!r) throw itemError('51503', 'Order modification failed as the order has been filled, canceled or does not exist.', ids);
        if (!r.result.ok) throw refusalError(r.result.refusal, ids);
        return [{ ...ids, ordId: ordIdOf(r.result.value), clOrdId: r.result.value.clientId, ts: String(runtime.now()), sCode: '0', sMsg: '' }];
      },
      { trade: true },
    ),
  );

  app.post(
    '/api/v5/trade/cancel-order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('instId'));
        const r = await runtime.run(account, (id, at) => {
          const o = findOrder(engine, id, p);
          if (!o || o.symbol !== spec.symbol || !isOpen(o)) return null;
          return engine.cancel(id, { id: o.id }, at);
        });
        const ids = { ordId: p.opt('ordId') ?? '', clOrdId: p.opt('clOrdId') ?? '' };
        if (!r) throw itemError('51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.', ids);
        if (!r.ok) throw refusalError(r.refusal, ids);
        return [{ clOrdId: r.value.clientId, ordId: ordIdOf(r.value), ts: String(runtime.now()), sCode: '0', sMsg: '' }];
      },
      { trade: true },
    ),
  );

  const scopeOf = (p: Params) => {
    const instType = p.opt('instType');
    if (instType !== undefined && instType !== 'SWAP') return { none: true as const };
    const instId = p.opt('instId');
    if (instId !== undefined) instrumentOf(venue, instId);
    return { instId, none: false as const };
  };
  const limitOf = (p: Params) => {
    const limit = p.int('limit') ?? 100;
    if (limit < 1 || limit > 100) throw paramError('limit');
    return limit;
  };
  /** Newest first, older than `after` (an id) when given. */
  const pageBy = <T>(rows: T[], key: (x: T) => string, p: Params) => {
    const after = p.opt('after');
    const before = p.opt('before');
    const list = rows.filter((x) => (after === undefined || BigInt(key(x)) < BigInt(after)) && (before === undefined || BigInt(key(x)) > BigInt(before)));
    return list.slice(0, limitOf(p));
  };

  app.get(
    '/api/v5/trade/orders-pending',
    signed(venue, async ({ params: p, account }) => {
      const scope = scopeOf(p);
      if (scope.none) return [];
      const open = await runtime.run(account, (id) => engine.openOrders(id, scope.instId).filter((o) => o.status !== 'UNTRIGGERED'));
      open.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      return pageBy(open, ordIdOf, p).map((o) => orderJson(engine.instrument(o.symbol)!, o, { tdMode: o.meta.tdMode }));
    }),
  );

  app.get(
    '/api/v5/trade/orders-history',
    signed(venue, async ({ params: p, account }) => {
      const scope = scopeOf(p);
      if (scope.none) return [];
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const rows = await store.orders(dbId, { symbol: scope.instId, limit: 1000, newest: true });
      const visible = rows.filter((o) => (!isAlgo(o) || o.triggeredAt !== null) && !isOpen(o));
      visible.sort((a, b) => Number(BigInt(ordIdOf(b)) - BigInt(ordIdOf(a))));
      return pageBy(visible, ordIdOf, p).map((o) => orderJson(engine.instrument(o.symbol)!, o, { tdMode: o.meta.tdMode }));
    }),
  );

  // Fills of the last 3 days and the archive answer alike here (one store).
  const fills = signed(venue, async ({ params: p, account }) => {
      const scope = scopeOf(p);
      if (scope.none) return [];
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const after = p.opt('after');
      const rows = await store.fills(dbId, { symbol: scope.instId, limit: 1000, newest: true });
      const page = rows.filter((f) => after === undefined || f.id < Number(after)).sort((a, b) => b.id - a.id).slice(0, limitOf(p));
      const orders = new Map((await store.ordersByIds(dbId, [...new Set(page.map((f) => f.orderId))])).map((o) => [o.id, o]));
      const ordId = p.opt('ordId');
      return page
        .map((f) => {
          const o = orders.get(f.orderId);
          return fillJson(engine.instrument(f.symbol)!, f, o ? ordIdOf(o) : `17${String(f.orderId).padStart(16, '0')}`, o && !isAlgo(o) ? o.clientId : '');
        })
        .filter((f) => ordId === undefined || f.ordId === ordId);
    });
  app.get('/api/v5/trade/fills', fills);
  app.get('/api/v5/trade/fills-history', fills);

  registerOkxAlgo(app, venue);
}

/** The algo service: `conditional` (reduce-only SL / TP) and `trigger` orders. */
function registerOkxAlgo(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;
  const algoOf = (id: string, p: Params): OrderRecord | undefined => {
    const algoId = p.opt('algoId');
    const cl = p.opt('algoClOrdId');
    if (algoId === undefined && cl === undefined) throw missing('algoId');
    const n = parseAlgoId(algoId);
    return engine.retained(id).find((o) => isAlgo(o) && (algoId !== undefined ? o.id === n : o.clientId === cl));
  };

  app.post(
    '/api/v5/trade/order-algo',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('instId'));
        const tdMode = p.oneOf('tdMode', TD_MODES);
        if (tdMode === undefined) throw missing('tdMode');
        const side = p.oneOf('side', ['buy', 'sell'] as const);
        if (!side) throw missing('side');
        checkPosSide(p);
        const ordType = p.oneOf('ordType', ['conditional', 'oco', 'trigger', 'move_order_stop', 'twap', 'chase'] as const);
        if (!ordType) throw missing('ordType');
        if (ordType !== 'conditional' && ordType !== 'trigger') throw itemError('51000', `Parameter ordType error: ${ordType} is not simulated`);
        const sz = p.decimal('sz');
        const closeFraction = p.opt('closeFraction');
        if (sz === undefined && closeFraction !== '1') throw missing('sz');
        const cl = clientIdOf(p, 'algoClOrdId');
        const reduceOnly = p.bool('reduceOnly') ?? false;
        const s = side === 'buy' ? 'BUY' : 'SELL';
        let trigger: string | undefined;
        let orderPx: string;
        let stop: boolean;
        if (ordType === 'trigger') {
          trigger = p.decimal('triggerPx');
          if (trigger === undefined) throw missing('triggerPx');
          orderPx = p.req('orderPx');
          // A trigger order is a stop when it buys above / sells below the market.
          const last = await runtime.run(account, (_id, at) => engine.lastPrice(spec.symbol, at));
          stop = last === null ? true : s === 'BUY' ? Number(trigger) >= Number(last) : Number(trigger) <= Number(last);
        } else {
          const sl = p.decimal('slTriggerPx');
          const tp = p.decimal('tpTriggerPx');
          if (sl !== undefined && tp !== undefined) throw itemError('51000', 'Parameter ordType error: one-way TP and SL in one order is not simulated; place two');
          if (sl === undefined && tp === undefined) throw missing('slTriggerPx');
          stop = sl !== undefined;
          trigger = sl ?? tp;
          orderPx = p.opt(stop ? 'slOrdPx' : 'tpOrdPx') ?? '-1';
        }
        const market = orderPx === '-1';
        if (!market && !/^\d{1,20}(\.\d{1,18})?$/.test(orderPx)) throw itemError('51000', 'Parameter orderPx error');
        const req: PlaceRequest = {
          symbol: spec.symbol,
          side: s,
          type: stop ? (market ? 'STOP_MARKET' : 'STOP_LIMIT') : market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT',
          qty: sz,
          price: market ? undefined : orderPx,
          trigger,
          reduceOnly: reduceOnly || ordType === 'conditional',
          closePosition: sz === undefined,
          clientId: cl,
          meta: { okxOrdType: ordType, tdMode, ...(ordType === 'trigger' ? attachMeta(attachedOf(p)) : {}) },
        };
        const r = await runtime.run(account, (id, at) => {
          const modeErr = applyTdMode(engine, id, spec.symbol, tdMode, at);
          return modeErr ? { err: modeErr } : { placed: engine.place(id, req, at) };
        });
        if ('err' in r && r.err) throw r.err;
        if (!r.placed!.ok) throw refusalError(r.placed!.refusal, { algoClOrdId: cl ?? '' });
        return [{ algoId: algoIdOf(r.placed!.value), algoClOrdId: cl ?? '', clOrdId: '', tag: '', sCode: '0', sMsg: '' }];
      },
      { trade: true },
    ),
  );

  app.get(
    '/api/v5/trade/order-algo',
    signed(venue, async ({ params: p, account }) => {
      const r = await runtime.run(account, (id, at) => {
        const o = algoOf(id, p);
        return o ? { o, last: engine.lastPrice(o.symbol, at) } : null;
      });
      if (!r) throw itemError('51603', 'Order does not exist.');
      return [algoJson(engine.instrument(r.o.symbol)!, r.o, r.last)];
    }),
  );

  app.post(
    '/api/v5/trade/cancel-algos',
    signed(
      venue,
      async ({ items, account }) => {
        if (items.length === 0) throw missing('algoId');
        const results = await runtime.run(account, (id, at) =>
          items.map((p) => {
            const o = algoOf(id, p);
            if (!o || o.status !== 'UNTRIGGERED') return { p, ok: false as const };
            const c = engine.cancel(id, { id: o.id }, at);
            return { p, ok: c.ok, o };
          }),
        );
        const failed = results.find((x) => !x.ok);
        if (failed) throw itemError('51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.', { algoId: failed.p.opt('algoId') ?? '' });
        return results.map((x) => ({ algoId: x.p.opt('algoId') ?? '', algoClOrdId: x.p.opt('algoClOrdId') ?? '', sCode: '0', sMsg: '' }));
      },
      { trade: true },
    ),
  );

  const list = (pending: boolean) =>
    signed(venue, async ({ params: p, account }) => {
      const ordType = p.opt('ordType');
      if (ordType === undefined) throw missing('ordType');
      const types = ordType.split(',');
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
      const limit = p.int('limit') ?? 100;
      if (limit < 1 || limit > 100) throw paramError('limit');
      const after = p.opt('after');
      return out.filter((j) => after === undefined || BigInt(j.algoId) < BigInt(after)).slice(0, limit);
    });
  app.get('/api/v5/trade/orders-algo-pending', list(true));
  app.get('/api/v5/trade/orders-algo-history', list(false));
}

