import type { Fill, Order, OrderStatus } from '../../../src/api/contracts/trading';
import { endOf, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { isoTime, joinId, priceOrNull, timeInForceOf, type TradingInstrument, UNTAGGED } from '../trading';
import { parseJson } from '../transport';
import { BINANCE_ALGO_STATUS, BINANCE_ORDER_STATUS, BINANCE_TYPE_FROM } from './trading';

/**
 * Binance's user-data stream (binance.md §6): a listenKey from `POST /fapi/v1/listenKey` (no signature),
 * `/private/ws/<listenKey>`, a keep-alive `PUT` every 30 min (the docs' 60 leaves no margin) and a new
 * key after `listenKeyExpired`. Order and algo updates map to orders (and fills); `ACCOUNT_UPDATE` is
 * an account signal.
 */
const KEEPALIVE_MS = 30 * 60_000;

type Json = Record<string, unknown>;

export const binancePrivateStream: PrivateStreamDriver = async (ctx, open, handlers) => {
  const headers = { 'X-MBX-APIKEY': ctx.creds.apiKey };
  const res = await ctx.transport({ method: 'POST', path: '/fapi/v1/listenKey', headers });
  const body = parseJson('binance', res) as Json;
  if (res.status >= 400 || typeof body.listenKey !== 'string') throw new Error(`binance: no listen key (${String(body.msg ?? res.status)})`);
  const listenKey = body.listenKey;
  const socket = await open(`/private/ws/${listenKey}`);
  const keepalive = setInterval(() => {
    void ctx.transport({ method: 'PUT', path: '/fapi/v1/listenKey', headers }).then((r) => {
      // -1125 "This listenKey does not exist": the stream is over, reconnect with a new key.
      if (r.status >= 400) socket.close(4000, 'listen key expired');
    }, () => undefined);
  }, KEEPALIVE_MS);
  keepalive.unref?.();

  const inst = (s: unknown) => ctx.instrument(String(s));
  onJson(socket, (msg) => {
    for (const e of binanceEvents(msg, inst)) handlers.event(e);
    if (msg.e === 'listenKeyExpired') socket.close(4000, 'listen key expired');
  });
  const stream = endOf(socket, handlers, () => clearInterval(keepalive), 'the exchange closed the user-data stream');
  return {
    close() {
      stream.close();
      void ctx.transport({ method: 'DELETE', path: '/fapi/v1/listenKey', headers }).catch(() => undefined);
    },
  };
};

type Lookup = (s: unknown) => TradingInstrument | undefined;

/** One user-data message → the account stream's events (pure: tested on the fixtures). */
export function binanceEvents(msg: Json, instrument: Lookup): PrivateEvent[] {
  const o = msg.o as Json | undefined;
  if (msg.e === 'ORDER_TRADE_UPDATE' && o) return orderTradeUpdate(msg, o, instrument);
  if (msg.e === 'ALGO_UPDATE' && o) return algoUpdate(msg, o, instrument);
  if (msg.e === 'ACCOUNT_UPDATE') {
    const a = msg.a as Json | undefined;
    const positions = (a?.P as Json[] | undefined) ?? [];
    return [{ kind: 'account', symbols: positions.map((p) => instrument(p.s)?.symbol).filter((s): s is string => !!s) }];
  }
  return [];
}

/** What an order and an algo update say alike: reduce-only (or close-position), time in force (GTX: post-only), the update's time. */
function flags(o: Json, time: string): Pick<Order, 'reduceOnly' | 'postOnly' | 'timeInForce' | 'createdAt' | 'updatedAt' | 'bracketId' | 'role'> {
  const tif = String(o.f ?? 'GTC');
  return { reduceOnly: o.R === true || o.cp === true, postOnly: tif === 'GTX', timeInForce: timeInForceOf(tif), createdAt: time, updatedAt: time, ...UNTAGGED };
}

/** `ORDER_TRADE_UPDATE`: the order, and its fill when the update is a trade. */
function orderTradeUpdate(msg: Json, o: Json, instrument: Lookup): PrivateEvent[] {
  const i = instrument(o.s);
  if (!i) return [];
  const time = isoTime(Number(o.T ?? msg.T ?? msg.E));
  const id = joinId(i.exchangeSymbol, 'o', String(o.i));
  const order: Order = {
    id,
    clientOrderId: typeof o.c === 'string' ? o.c : null,
    exchange: 'binance',
    symbol: i.symbol,
    side: o.S === 'SELL' ? 'SELL' : 'BUY',
    type: BINANCE_TYPE_FROM[String(o.ot ?? o.o)] ?? 'LIMIT',
    status: (BINANCE_ORDER_STATUS[String(o.X)] ?? 'OUT_OF_SYNC') as OrderStatus,
    qty: String(o.q),
    filledQty: String(o.z ?? '0'),
    price: priceOrNull(o.p),
    triggerPrice: priceOrNull(o.sp),
    avgFillPrice: priceOrNull(o.ap),
    ...flags(o, time),
  };
  const out: PrivateEvent[] = [{ kind: 'order', order }];
  if (o.x === 'TRADE' && Number(o.l) > 0) {
    const fill: Fill = {
      id: String(o.t),
      orderId: id,
      symbol: i.symbol,
      side: order.side,
      qty: String(o.l),
      price: String(o.L),
      fee: String(o.n ?? '0'),
      feeCurrency: String(o.N ?? i.settle),
      realisedPnl: String(o.rp ?? '0'),
      time,
      liquidation: typeof o.c === 'string' && o.c.startsWith('autoclose-'),
    };
    out.push({ kind: 'fill', fill });
  }
  return out;
}

/** `ALGO_UPDATE`: a conditional order's state. */
function algoUpdate(msg: Json, o: Json, instrument: Lookup): PrivateEvent[] {
  const i = instrument(o.s);
  if (!i) return [];
  const time = isoTime(Number(msg.T ?? msg.E));
  const status = BINANCE_ALGO_STATUS[String(o.X)] ?? 'OUT_OF_SYNC';
  const order: Order = {
    id: joinId(i.exchangeSymbol, 'a', String(o.aid)),
    clientOrderId: typeof o.caid === 'string' ? o.caid : null,
    exchange: 'binance',
    symbol: i.symbol,
    side: o.S === 'SELL' ? 'SELL' : 'BUY',
    type: BINANCE_TYPE_FROM[String(o.o)] ?? 'CONDITIONAL',
    status,
    qty: String(o.q),
    filledQty: status === 'FILLED' ? String(o.q) : String(o.aq && Number(o.aq) ? o.aq : '0'),
    price: priceOrNull(o.p),
    triggerPrice: priceOrNull(o.tp),
    avgFillPrice: priceOrNull(o.ap),
    ...flags(o, time),
  };
  return [{ kind: 'order', order }];
}
