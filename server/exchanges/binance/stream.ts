import { abs, add, dec, div, fixed, isZero, mul, str } from '../../../src/api/contracts/decimal';
import type { Fill, Order, OrderStatus, Position } from '../../../src/api/contracts/trading';
import { endOf, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { isoTime, joinId, priceOrNull, timeInForceOf, type TradingInstrument, UNTAGGED } from '../trading';
import { parseJson } from '../transport';
import { BINANCE_ALGO_STATUS, BINANCE_ORDER_STATUS, BINANCE_TYPE_FROM } from './trading';

/**
 * Binance's user-data stream (binance.md §6): a listenKey from `POST /fapi/v1/listenKey` (no signature),
 * `/private/ws/<listenKey>`, a keep-alive `PUT` every 30 min (the docs' 60 leaves no margin) and a new
 * key after `listenKeyExpired`. Order and algo updates map to orders (and fills); `ACCOUNT_UPDATE`'s
 * positions (`a.P`) map to positions. Its balances (`a.B`: wallet and cross wallet) carry no available balance,
 * margin used or margin balance, so they are a signal for a REST balance read; its positions carry no
 * leverage and liquidation price (nor a cross position's margin), which the account state keeps from its
 * last read of the symbol; the mark is derived from the unrealised PnL (entry + PnL ÷ signed size).
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
    const out: PrivateEvent[] = [];
    for (const p of (a?.P as Json[] | undefined) ?? []) {
      const i = instrument(p.s);
      if (i && (p.ps === undefined || p.ps === 'BOTH')) out.push(binancePushedPosition(i, p));
    }
    if (((a?.B as Json[] | undefined) ?? []).length) out.push({ kind: 'account', symbols: [], parts: ['balance'] });
    return out;
  }
  return [];
}

/** One `ACCOUNT_UPDATE` position row (one-way mode) → the contract's position, less what it does not carry. */
function binancePushedPosition(i: TradingInstrument, p: Json): PrivateEvent {
  const amt = dec(String(p.pa ?? '0'));
  const size = str(abs(amt));
  const entry = String(p.ep ?? '0');
  const upl = String(p.up ?? '0');
  const mark = isZero(amt) ? dec(entry) : add(dec(entry), div(dec(upl), amt, 8));
  const isolated = String(p.mt).toLowerCase() === 'isolated';
  const position: Position = {
    exchange: 'binance',
    symbol: i.symbol,
    side: amt.units < 0n ? 'SELL' : 'BUY',
    size,
    baseQty: size,
    notional: fixed(mul(abs(amt), mark), 8),
    entryPrice: entry,
    markPrice: str(mark),
    liquidationPrice: null,
    // The docs show "0" beside a live position: then the entry (as the REST mapper falls back).
    breakEvenPrice: Number(p.bep) > 0 ? String(p.bep) : entry,
    unrealisedPnl: upl,
    realisedPnl: '0',
    leverage: '0',
    marginMode: isolated ? 'ISOLATED' : 'CROSS',
    margin: isolated ? String(p.iw ?? '0') : '0',
    category: 'linear',
  };
  return { kind: 'position', position, missing: isolated ? ['leverage', 'liquidationPrice'] : ['leverage', 'liquidationPrice', 'margin'] };
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
