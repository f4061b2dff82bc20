import type { FastifyInstance } from 'fastify';
import { simAccountId } from '../../private/credentials';
import { fixed, formatFixed, type AccountKey, type OrderRecord, type PlaceRequest } from '../engine';
import type { VenueContext } from '../venue';
import { accountTagOf, engineIdOf, executionJson, orderJson } from './format';
import { BitmexError, instrumentOf, invalid, refusalError, signed, type Params } from './params';

/** BitMEX clOrdID: up to 36 characters. */
const CL_ORD_ID = /^[\x21-\x7e]{1,36}$/;
const ORD_TYPES = ['Market', 'Limit', 'Stop', 'StopLimit', 'MarketIfTouched', 'LimitIfTouched'] as const;
const TIFS: Record<string, PlaceRequest['timeInForce']> = { GoodTillCancel: 'GTC', ImmediateOrCancel: 'IOC', FillOrKill: 'FOK', Day: 'GTC' };
const EXEC_INSTS = ['ReduceOnly', 'Close', 'ParticipateDoNotInitiate', 'LastPrice', 'MarkPrice', 'IndexPrice', 'AllOrNone', 'Fixed'];

export const isOpen = (o: OrderRecord) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' || o.status === 'UNTRIGGERED';

/** Per-request helpers: the account's UUID tag and numeric account. */
export function ids(venue: VenueContext, account: AccountKey) {
  return { tag: accountTagOf(account.apiKey, account.network), accountNo: simAccountId(venue.seed, account.apiKey) };
}

function engineTypeOf(ordType: (typeof ORD_TYPES)[number]): PlaceRequest['type'] {
  return ({ Market: 'MARKET', Limit: 'LIMIT', Stop: 'STOP_MARKET', StopLimit: 'STOP_LIMIT', MarketIfTouched: 'TAKE_PROFIT_MARKET', LimitIfTouched: 'TAKE_PROFIT' } as const)[ordType];
}

function execInstOf(p: Params): string[] {
  const v = p.opt('execInst');
  if (v === undefined) return [];
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((x) => !EXEC_INSTS.includes(x));
  if (bad !== undefined) throw invalid(`Invalid execInst: ${bad}`);
  return list;
}

/**
 * `/api/v1/order` (POST place, PUT amend, DELETE cancel, GET list), `/api/v1/order/all` (DELETE) and
 * `/api/v1/execution/tradeHistory`. Conditional orders (Stop, StopLimit, MarketIfTouched,
 * LimitIfTouched) keep their orderID when they fire (BitMEX shows one order).
 */
export function registerBitmexOrders(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.post(
    '/api/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('symbol'));
        const { tag, accountNo } = ids(venue, account);
        const exec = execInstOf(p);
        const close = exec.includes('Close');
        let qtyText = p.opt('orderQty');
        let side = p.opt('side');
        if (qtyText?.startsWith('-')) {
          // A negative orderQty sells (BitMEX's legacy form).
          qtyText = qtyText.slice(1);
          side ??= 'Sell';
        }
        if (qtyText !== undefined && !/^\d{1,20}(\.\d{1,18})?$/.test(qtyText)) throw invalid('orderQty is invalid');
        if (side !== 'Buy' && side !== 'Sell') throw invalid(side === undefined ? "'side' is required" : `Invalid side: ${side}`);
        if (qtyText === undefined && !close) throw invalid("'orderQty' is required");
        const price = p.decimal('price');
        const stopPx = p.decimal('stopPx');
        const given = p.opt('ordType');
        if (given !== undefined && !(ORD_TYPES as readonly string[]).includes(given)) throw invalid(`Invalid ordType: ${given}`);
        const ordType = (given ?? (stopPx ? (price ? 'StopLimit' : 'Stop') : price ? 'Limit' : 'Market')) as (typeof ORD_TYPES)[number];
        const type = engineTypeOf(ordType);
        const priced = type === 'LIMIT' || type === 'STOP_LIMIT' || type === 'TAKE_PROFIT';
        if (priced && price === undefined) throw invalid(`Must specify price with ${ordType} orders`);
        if (type !== 'LIMIT' && type !== 'MARKET' && stopPx === undefined) throw invalid(`Must specify stopPx with ${ordType} orders`);
        const tifText = p.opt('timeInForce');
        if (tifText !== undefined && !(tifText in TIFS)) throw invalid(`Invalid timeInForce: ${tifText}`);
        const clOrdID = p.opt('clOrdID');
        if (clOrdID !== undefined && !CL_ORD_ID.test(clOrdID)) throw invalid('Invalid clOrdID');
        const s = side === 'Buy' ? 'BUY' : 'SELL';
        const r = await runtime.run(account, (id, at) => {
          let qty = qtyText;
          if (close && qty === undefined && type !== 'LIMIT' && type !== 'MARKET') qty = undefined;
          else if (close && qty === undefined) {
            const [pos] = engine.positions(id, spec.symbol);
            qty = pos ? pos.size.replace('-', '') : '0';
          }
          const req: PlaceRequest = {
            symbol: spec.symbol,
            side: s,
            type,
            qty,
            price: priced ? price : undefined,
            trigger: type === 'LIMIT' || type === 'MARKET' ? undefined : stopPx,
            timeInForce: tifText ? TIFS[tifText] : 'GTC',
            postOnly: exec.includes('ParticipateDoNotInitiate'),
            reduceOnly: exec.includes('ReduceOnly') || close,
            closePosition: close && qty === undefined,
            clientId: clOrdID,
            meta: { execInst: exec.join(',') },
          };
          return engine.place(id, req, at);
        });
        if (!r.ok) throw refusalError(r.refusal);
        return orderJson(spec, tag, r.value, String(accountNo));
      },
      { trade: true },
    ),
  );

  /** The account's order an `orderID` / `origClOrdID` / `clOrdID` names (open or recently closed). */
  const findOne = (id: string, tag: string, p: Params, idName: string, clName: string): OrderRecord | undefined => {
    const orderID = p.opt(idName);
    const cl = p.opt(clName);
    if (orderID === undefined && cl === undefined) throw invalid(`Must specify ${idName} or ${clName}`);
    const n = orderID !== undefined ? engineIdOf(tag, orderID) : null;
    return engine.retained(id).find((o) => (orderID !== undefined ? o.id === n : o.clientId === cl));
  };

  app.put(
    '/api/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const { tag, accountNo } = ids(venue, account);
        const orderQty = p.decimal('orderQty');
        const leavesQty = p.decimal('leavesQty');
        const price = p.decimal('price');
        const stopPx = p.decimal('stopPx');
        const r = await runtime.run(account, (id, at) => {
          const o = findOne(id, tag, p, 'orderID', 'origClOrdID');
          if (!o || !isOpen(o)) return null;
          const qty = leavesQty !== undefined ? formatFixed(fixed(o.filledQty) + fixed(leavesQty), 18) : orderQty;
          return { o, result: engine.amend(id, { id: o.id }, { qty, price: o.price === null ? undefined : price, trigger: o.trigger === null || o.triggeredAt !== null ? undefined : stopPx }, at) };
        });
        if (!r) throw new BitmexError(404, 'Not Found');
        if (!r.result.ok) throw refusalError(r.result.refusal);
        return orderJson(engine.instrument(r.o.symbol)!, tag, r.result.value, String(accountNo));
      },
      { trade: true },
    ),
  );

  app.delete(
    '/api/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const { tag, accountNo } = ids(venue, account);
        const orderIDs = p.list('orderID') ?? [];
        const clOrdIDs = p.list('clOrdID') ?? [];
        if (!orderIDs.length && !clOrdIDs.length) throw invalid('Must specify orderID or clOrdID');
        const results = await runtime.run(account, (id, at) => {
          const held = engine.retained(id);
          const refs: Array<{ key: string; o: OrderRecord | undefined; byId: boolean }> = [
            ...orderIDs.map((x) => ({ key: x, byId: true, o: held.find((o) => o.id === engineIdOf(tag, x)) })),
            ...clOrdIDs.map((x) => ({ key: x, byId: false, o: held.find((o) => o.clientId === x) })),
          ];
          return refs.map((ref) => {
            if (!ref.o) return { ref, o: undefined, error: 'Not Found' };
            if (!isOpen(ref.o)) return { ref, o: ref.o, error: `Unable to cancel order due to existing state: ${ref.o.status === 'FILLED' ? 'Filled' : 'Canceled'}` };
            const c = engine.cancel(id, { id: ref.o.id }, at);
            return c.ok ? { ref, o: c.value, error: undefined } : { ref, o: ref.o, error: 'Not Found' };
          });
        });
        return results.map(({ ref, o, error }) => {
          if (!o) return { orderID: ref.byId ? ref.key : '', clOrdID: ref.byId ? '' : ref.key, error };
          const json = orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo));
          return error ? { ...json, error } : json;
        });
      },
      { trade: true },
    ),
  );

  app.delete(
    '/api/v1/order/all',
    signed(
      venue,
      async ({ params: p, account }) => {
        const { tag, accountNo } = ids(venue, account);
        const symbol = p.opt('symbol');
        const spec = symbol === undefined ? undefined : instrumentOf(venue, symbol);
        const cancelled = await runtime.run(account, (id, at) => {
          const symbols = spec ? [spec.symbol] : [...new Set(engine.openOrders(id).map((o) => o.symbol))];
          return symbols.flatMap((s) => engine.cancelAll(id, s, at));
        });
        return cancelled.map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
      },
      { trade: true },
    ),
  );

  const countOf = (p: Params) => {
    const count = p.int('count') ?? 100;
    if (count < 1 || count > 1000) throw invalid('count must be between 1 and 1000');
    return count;
  };
  const timeOf = (p: Params, name: string) => {
    const v = p.opt(name);
    if (v === undefined) return undefined;
    const t = Date.parse(v);
    if (Number.isNaN(t)) throw invalid(`Invalid ${name}`);
    return t;
  };

  app.get(
    '/api/v1/order',
    signed(venue, async ({ params: p, account }) => {
      const { tag, accountNo } = ids(venue, account);
      const filter = p.json('filter') ?? {};
      const symbol = p.opt('symbol') ?? (typeof filter.symbol === 'string' ? filter.symbol : undefined);
      const spec = symbol === undefined ? undefined : instrumentOf(venue, symbol);
      const count = countOf(p);
      const start = p.int('start') ?? 0;
      const reverse = p.bool('reverse') ?? false;
      const startTime = timeOf(p, 'startTime');
      const endTime = timeOf(p, 'endTime');
      await runtime.run(account, () => undefined);
      let rows: OrderRecord[];
      if (filter.open === true) {
        rows = await runtime.run(account, (id) => engine.openOrders(id, spec?.symbol));
      } else {
        const store = await runtime.history();
        const dbId = await runtime.dbId(account);
        rows = await store.orders(dbId, { symbol: spec?.symbol, startTime, endTime, limit: start + count + 500, newest: reverse });
        const held = await runtime.run(account, (id) => engine.retained(id));
        const known = new Set(rows.map((o) => o.id));
        for (const o of held) if (!known.has(o.id) && (!spec || o.symbol === spec.symbol)) rows.push(o);
      }
      const byFilter = rows.filter((o) => {
        if (typeof filter.clOrdID === 'string' && o.clientId !== filter.clOrdID) return false;
        if (typeof filter.orderID === 'string' && o.id !== engineIdOf(tag, filter.orderID)) return false;
        if (typeof filter.ordStatus === 'string' && orderJson(engine.instrument(o.symbol)!, tag, o, '').ordStatus !== filter.ordStatus) return false;
        if (startTime !== undefined && o.createdAt < startTime) return false;
        if (endTime !== undefined && o.createdAt > endTime) return false;
        return true;
      });
      byFilter.sort((a, b) => (reverse ? b.createdAt - a.createdAt || b.id - a.id : a.createdAt - b.createdAt || a.id - b.id));
      return byFilter.slice(start, start + count).map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
    }),
  );

  app.get(
    '/api/v1/execution/tradeHistory',
    signed(venue, async ({ params: p, account }) => {
      const { tag, accountNo } = ids(venue, account);
      const filter = p.json('filter') ?? {};
      const symbol = p.opt('symbol') ?? (typeof filter.symbol === 'string' ? filter.symbol : undefined);
      const spec = symbol === undefined ? undefined : instrumentOf(venue, symbol);
      const count = countOf(p);
      const start = p.int('start') ?? 0;
      const reverse = p.bool('reverse') ?? false;
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const fills = await store.fills(dbId, { symbol: spec?.symbol, startTime: timeOf(p, 'startTime'), endTime: timeOf(p, 'endTime'), limit: start + count, newest: reverse });
      fills.sort((a, b) => (reverse ? b.time - a.time || b.id - a.id : a.time - b.time || a.id - b.id));
      const page = fills.slice(start, start + count);
      const orders = new Map((await store.ordersByIds(dbId, [...new Set(page.map((f) => f.orderId))])).map((o) => [o.id, o]));
      return page.map((f) => executionJson(engine.instrument(f.symbol)!, tag, f, orders.get(f.orderId), String(accountNo)));
    }),
  );
}
