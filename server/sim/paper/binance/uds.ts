import { fixed, formatFixed, trimZeros, type EngineEvent, type InstrumentSpec, type OrderRecord } from '../engine';
import { algoFields, isAlgo, orderFields } from './format';

/**
 * Engine events → Binance user-data stream frames (fixtures uds-*.json): ORDER_TRADE_UPDATE for
 * orders and their fills, ALGO_UPDATE for conditional orders, ACCOUNT_UPDATE for balances and
 * positions, ACCOUNT_CONFIG_UPDATE for leverage. A waiting conditional order is only an algo
 * order; when it fires, the order it releases gets ORDER_TRADE_UPDATEs of its own.
 */
export function binanceFrames(events: EngineEvent[], spec: (symbol: string) => InstrumentSpec | undefined): Array<{ e: string } & Record<string, unknown>> {
  const out: Array<{ e: string } & Record<string, unknown>> = [];
  for (const ev of events) {
    if (ev.type === 'account') {
      if (ev.reason === 'leverage') {
        for (const p of ev.positions) out.push({ e: 'ACCOUNT_CONFIG_UPDATE', E: ev.time, T: ev.time, ac: { s: p.symbol, l: p.leverage } });
        continue;
      }
      if (ev.reason === 'reset') continue;
      out.push({
        e: 'ACCOUNT_UPDATE',
        E: ev.time,
        T: ev.time,
        a: {
          m: ev.reason === 'margin-mode' ? 'MARGIN_TYPE_CHANGE' : 'ORDER',
          B: ev.balances.map((b) => ({ a: b.currency, wb: formatFixed(fixed(b.wallet), 8), cw: formatFixed(fixed(b.crossWallet), 8), bc: '0' })),
          P: ev.positions.map((p) => ({
            s: p.symbol,
            pa: trimZeros(p.size),
            ep: p.side === 'FLAT' ? '0.00000' : trimZeros(p.entryPrice),
            bep: p.side === 'FLAT' ? '0' : trimZeros(p.breakEvenPrice),
            cr: trimZeros(p.realisedPnl),
            up: formatFixed(fixed(p.unrealisedPnl), 8),
            mt: p.marginMode,
            iw: formatFixed(fixed(p.isolatedMargin), 8),
            ps: 'BOTH',
          })),
        },
      });
      continue;
    }
    const s = spec(ev.order.symbol);
    if (!s) continue;
    const o = ev.order;
    const algo = isAlgo(o);
    const released = !algo || o.triggeredAt !== null;
    if (algo && ev.exec !== 'fill') out.push(algoUpdate(s, o, ev.time));
    if (!released || (algo && ev.exec === 'amended')) continue;
    const x = ev.exec === 'fill' ? (ev.fill?.liquidation ? 'CALCULATED' : 'TRADE') : EXEC[ev.exec];
    out.push({ e: 'ORDER_TRADE_UPDATE', E: ev.time, T: ev.time, o: orderUpdate(s, o, x, ev) });
    if (algo && ev.exec === 'fill' && o.status === 'FILLED') out.push(algoUpdate(s, o, ev.time));
  }
  return out;
}

const EXEC: Record<Exclude<Extract<EngineEvent, { type: 'order' }>['exec'], 'fill'>, string> = {
  new: 'NEW',
  triggered: 'NEW',
  canceled: 'CANCELED',
  expired: 'EXPIRED',
  rejected: 'EXPIRED',
  amended: 'AMENDMENT',
};

function orderUpdate(spec: InstrumentSpec, o: OrderRecord, x: string, ev: Extract<EngineEvent, { type: 'order' }>) {
  const f = orderFields(spec, o);
  const fill = ev.fill;
  return {
    s: o.symbol,
    c: f.clientOrderId,
    S: o.side,
    o: f.type,
    f: f.timeInForce,
    q: f.origQty,
    p: f.price,
    ap: f.avgPrice,
    sp: f.stopPrice,
    x,
    X: f.status,
    i: f.orderId,
    l: fill ? fill.qty : '0',
    z: f.executedQty,
    L: fill ? fill.price : '0',
    N: fill ? fill.feeCurrency : spec.settle,
    n: fill ? trimZeros(fill.fee) : '0',
    T: ev.time,
    t: fill ? fill.id : 0,
    b: '0',
    a: '0',
    m: fill ? fill.maker : false,
    R: o.reduceOnly,
    wt: f.workingType,
    ot: f.origType,
    ps: 'BOTH',
    cp: o.closePosition,
    pP: f.priceProtect,
    si: 0,
    ss: 0,
    rp: fill ? trimZeros(fill.realisedPnl) : '0',
    V: f.selfTradePreventionMode,
    pm: 'NONE',
    gtd: f.goodTillDate,
    er: '0',
  };
}

function algoUpdate(spec: InstrumentSpec, o: OrderRecord, time: number) {
  const a = algoFields(spec, o);
  return {
    e: 'ALGO_UPDATE',
    T: time,
    E: time,
    o: {
      caid: a.clientAlgoId,
      aid: a.algoId,
      at: 'CONDITIONAL',
      o: a.orderType,
      s: o.symbol,
      S: o.side,
      ps: 'BOTH',
      f: a.timeInForce,
      q: a.quantity,
      X: a.algoStatus,
      ai: a.actualOrderId,
      ap: a.actualPrice,
      aq: fixed(o.filledQty) === 0n ? '0.00000' : o.filledQty,
      act: o.triggeredAt === null ? '0' : o.price === null ? 'MARKET' : 'LIMIT',
      tp: trimZeros(a.triggerPrice as string),
      p: trimZeros(a.price as string),
      V: a.selfTradePreventionMode,
      wt: a.workingType,
      pm: 'NONE',
      cp: o.closePosition,
      pP: a.priceProtect,
      R: o.reduceOnly,
      tt: a.triggerTime,
      gtd: a.goodTillDate,
      rm: REASONS[o.reason ?? ''] ?? '',
    },
  };
}

const REASONS: Record<string, string> = {
  'reduce-only': 'Reduce Only reject',
  'insufficient-margin': 'Margin is insufficient',
  liquidation: 'Canceled by liquidation',
};
