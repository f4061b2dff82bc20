import { abs, dec, div, fixed, mul, str } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderStatus, OrderType, Position, SymbolSettings } from '../../../src/api/contracts/trading';
import { ExchangeUnreachableError, parseJson } from '../transport';
import {
  isConditional,
  isoTime,
  joinId,
  leverageText,
  priceOrNull,
  splitId,
  TradeRefusedError,
  type ConnectorContext,
  type NewOrder,
  type OrderChange,
  type Page,
  type TradingConnector,
  type TradingInstrument,
} from '../trading';
import { nextClientId } from '../binance/trading';
import { okxHeaders } from './account';

/**
 * OKX v5 trading (okx.md §5–§7), net position mode, SWAP instruments; sizes in contracts (`sz`).
 * Plain orders at `/trade/order`; stops and take-profits at `/trade/order-algo` (`conditional` for
 * reduce-only protection, `trigger` for an opening stop). `code` is a string; a refused item has
 * `code: "1"` with the reason in `data[0].sCode/sMsg` (trap 9). Ids: `instId:o:ordId`, `instId:a:algoId`.
 * The margin mode is chosen per order (`tdMode`): the terminal sends the mode last set for the symbol
 * (kept with the key's connector state), else the open position's, else cross.
 */

type Json = Record<string, unknown>;

const PAGE = 50;

const STATE: Record<string, OrderStatus> = {
  live: 'NEW',
  partially_filled: 'PARTIALLY_FILLED',
  filled: 'FILLED',
  canceled: 'CANCELED',
  mmp_canceled: 'CANCELED',
};
const ALGO_STATE: Record<string, OrderStatus> = {
  live: 'UNTRIGGERED',
  pause: 'UNTRIGGERED',
  partially_effective: 'NEW',
  effective: 'FILLED',
  canceled: 'CANCELED',
  order_failed: 'REJECTED',
  partially_failed: 'REJECTED',
};

function fieldOf(code: string): string | undefined {
  if (['51008', '51121', '51120', '51004', '51202'].includes(code)) return 'qty';
  if (['51006', '51137', '51138', '51139'].includes(code)) return 'price';
  if (['51277', '51278', '51279', '51280'].includes(code)) return 'triggerPrice';
  if (code === '51169' || code === '51170') return 'reduceOnly';
  if (code === '51001') return 'symbol';
  return undefined;
}

export class OkxTrading implements TradingConnector {
  readonly exchange = 'okx' as const;

  constructor(private readonly ctx: ConnectorContext) {}

  async serverTime(): Promise<number> {
    const res = await this.ctx.transport({ method: 'GET', path: '/api/v5/public/time', headers: {} });
    const row = ((parseJson('okx', res) as Json).data as Json[] | undefined)?.[0];
    if (!row) throw new ExchangeUnreachableError('okx', 'no server time');
    return Number(row.ts);
  }

  async lastPrice(inst: TradingInstrument): Promise<string> {
    const res = await this.ctx.transport({ method: 'GET', path: `/api/v5/market/ticker?instId=${inst.exchangeSymbol}`, headers: {} });
    const row = ((parseJson('okx', res) as Json).data as Json[] | undefined)?.[0];
    if (!row || typeof row.last !== 'string') throw new ExchangeUnreachableError('okx', `no price for ${inst.exchangeSymbol}`);
    return row.last;
  }

  private async call(method: 'GET' | 'POST', path: string, payload: Array<readonly [string, string]> | Json | Json[], retried = false): Promise<Json[]> {
    this.ctx.gate.check();
    await this.ctx.clock.sync(() => this.serverTime());
    const isGet = method === 'GET';
    const query = isGet ? (payload as Array<readonly [string, string]>).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') : '';
    const requestPath = isGet && query ? `${path}?${query}` : path;
    const body = isGet ? '' : JSON.stringify(payload);
    const res = await this.ctx.transport({
      method,
      path: requestPath,
      headers: { ...okxHeaders(this.ctx.creds, this.ctx.clock.now(), method, requestPath, body), ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      ...(isGet ? {} : { body }),
    });
    const json = parseJson('okx', res) as Json;
    const data = Array.isArray(json.data) ? (json.data as Json[]) : [];
    const code = String(json.code ?? (res.status >= 400 ? res.status : '0'));
    if (code === '0' && res.status < 400) return data;
    const item = data.find((d) => d.sCode !== undefined && String(d.sCode) !== '0');
    const sCode = item ? String(item.sCode) : code;
    const msg = item ? String(item.sMsg ?? json.msg) : String(json.msg ?? `HTTP ${res.status}`);
    if (sCode === '50102' && !retried) {
      await this.ctx.clock.sync(() => this.serverTime(), true);
      return this.call(method, path, payload, true);
    }
    if (sCode === '50011' || sCode === '50061' || res.status === 429) {
      // okx.md §7: no rate-limit headers; the limits are counted per 2 s, so one window is the wait.
      this.ctx.gate.holdFor(2_000);
      throw new TradeRefusedError('okx', sCode, msg, fieldOf(sCode), 429, this.ctx.gate.retryAfterSeconds());
    }
    // 51603 order does not exist; 51400 / 51503 cancel / amend of an order filled, cancelled or unknown.
    const status = ['51603', '51400', '51503'].includes(sCode) ? 404 : 422;
    throw new TradeRefusedError('okx', sCode, msg, fieldOf(sCode), status);
  }

  private inst(instId: string): TradingInstrument {
    const inst = this.ctx.instrument(instId);
    if (!inst) throw new TradeRefusedError('okx', '51001', `Instrument ID ${instId} does not exist.`, 'symbol');
    return inst;
  }

  mapOrder(o: Json): Order {
    const inst = this.inst(String(o.instId));
    const ordType = String(o.ordType);
    const type: OrderType = ordType === 'market' || ordType === 'optimal_limit_ioc' ? 'MARKET' : 'LIMIT';
    const reduceOnly = o.reduceOnly === true || o.reduceOnly === 'true';
    const tif = ordType === 'ioc' || ordType === 'optimal_limit_ioc' ? 'IOC' : ordType === 'fok' ? 'FOK' : 'GTC';
    return {
      id: joinId(inst.exchangeSymbol, 'o', String(o.ordId)),
      // An order an algo released carries the algo's client id (so a bracket's leg keeps its role).
      clientOrderId: typeof o.clOrdId === 'string' && o.clOrdId ? o.clOrdId : typeof o.algoClOrdId === 'string' && o.algoClOrdId ? o.algoClOrdId : null,
      exchange: 'okx',
      symbol: inst.symbol,
      side: o.side === 'sell' ? 'SELL' : 'BUY',
      type,
      status: STATE[String(o.state)] ?? 'OUT_OF_SYNC',
      qty: String(o.sz),
      filledQty: String(o.accFillSz || '0'),
      price: type === 'MARKET' ? null : priceOrNull(o.px),
      triggerPrice: null,
      avgFillPrice: priceOrNull(o.avgPx),
      reduceOnly,
      postOnly: ordType === 'post_only',
      timeInForce: tif,
      createdAt: isoTime(Number(o.cTime ?? 0)),
      updatedAt: isoTime(Number(o.uTime ?? o.cTime ?? 0)),
      bracketId: null,
      role: null,
    };
  }

  mapAlgo(o: Json): Order {
    const inst = this.inst(String(o.instId));
    const side = o.side === 'sell' ? 'SELL' : 'BUY';
    let trigger = priceOrNull(o.triggerPx);
    let px = o.orderPx;
    let stop = true;
    if (!trigger && priceOrNull(o.slTriggerPx)) {
      trigger = priceOrNull(o.slTriggerPx);
      px = o.slOrdPx;
    } else if (!trigger && priceOrNull(o.tpTriggerPx)) {
      trigger = priceOrNull(o.tpTriggerPx);
      px = o.tpOrdPx;
      stop = false;
    } else if (trigger) {
      // A plain trigger order: a stop when it fires against the side's favour (a buy above the market).
      const last = Number(o.last ?? 0);
      stop = last === 0 ? true : side === 'BUY' ? Number(trigger) >= last : Number(trigger) <= last;
    }
    const market = px === undefined || px === '' || String(px) === '-1';
    const type: OrderType = stop ? (market ? 'STOP_MARKET' : 'STOP_LIMIT') : market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT';
    const status = ALGO_STATE[String(o.state)] ?? 'OUT_OF_SYNC';
    return {
      id: joinId(inst.exchangeSymbol, 'a', String(o.algoId)),
      clientOrderId: typeof o.algoClOrdId === 'string' && o.algoClOrdId ? o.algoClOrdId : null,
      exchange: 'okx',
      symbol: inst.symbol,
      side,
      type,
      status,
      qty: String(o.sz),
      filledQty: status === 'FILLED' ? String(o.sz) : '0',
      price: market ? null : priceOrNull(px),
      triggerPrice: trigger,
      avgFillPrice: priceOrNull(o.actualPx),
      reduceOnly: o.reduceOnly === true || o.reduceOnly === 'true',
      postOnly: false,
      timeInForce: 'GTC',
      createdAt: isoTime(Number(o.cTime ?? 0)),
      updatedAt: isoTime(Number(o.uTime ?? o.cTime ?? 0)),
      bracketId: null,
      role: null,
    };
  }

  mapFill(f: Json): Fill {
    const inst = this.inst(String(f.instId));
    return {
      id: String(f.tradeId),
      orderId: joinId(inst.exchangeSymbol, 'o', String(f.ordId)),
      symbol: inst.symbol,
      side: f.side === 'sell' ? 'SELL' : 'BUY',
      qty: String(f.fillSz),
      price: String(f.fillPx),
      // OKX reports the fee negative when paid: the model's fee is positive when paid.
      fee: str(mul(dec(String(f.fee || '0')), dec(-1))),
      feeCurrency: String(f.feeCcy || inst.settle),
      realisedPnl: String(f.fillPnl || '0'),
      time: isoTime(Number(f.fillTime ?? f.ts ?? 0)),
      liquidation: f.execType === 'liquidation' || f.subType === '109' || f.subType === '110',
    };
  }

  orderSymbol(id: string): string | null {
    const [instId, kind, ref] = splitId(id);
    return instId && (kind === 'o' || kind === 'a') && ref ? instId : null;
  }

  /** The margin mode orders of `inst` are sent with. */
  private async tdMode(inst: TradingInstrument): Promise<'cross' | 'isolated'> {
    const chosen = this.ctx.prefs?.get(`mgnMode:${inst.exchangeSymbol}`);
    if (chosen === 'cross' || chosen === 'isolated') return chosen;
    const pos = (await this.call('GET', '/api/v5/account/positions', [['instType', 'SWAP'], ['instId', inst.exchangeSymbol]]))[0];
    return pos?.mgnMode === 'isolated' ? 'isolated' : 'cross';
  }

  async place(o: NewOrder): Promise<Order> {
    const inst = this.inst(o.symbol);
    const side = o.side === 'BUY' ? 'buy' : 'sell';
    const tdMode = await this.tdMode(inst);
    if (isConditional(o.type)) {
      const market = o.type === 'STOP_MARKET' || o.type === 'TAKE_PROFIT_MARKET';
      const orderPx = market ? '-1' : (o.price ?? '-1');
      const stop = o.type === 'STOP_MARKET' || o.type === 'STOP_LIMIT';
      const body: Json = o.reduceOnly
        ? {
            instId: inst.exchangeSymbol,
            tdMode,
            side,
            posSide: 'net',
            ordType: 'conditional',
            sz: o.qty,
            ...(stop ? { slTriggerPx: o.triggerPrice, slOrdPx: orderPx, slTriggerPxType: 'last' } : { tpTriggerPx: o.triggerPrice, tpOrdPx: orderPx, tpTriggerPxType: 'last' }),
            reduceOnly: true,
            algoClOrdId: o.clientOrderId,
          }
        : { instId: inst.exchangeSymbol, tdMode, side, posSide: 'net', ordType: 'trigger', sz: o.qty, triggerPx: o.triggerPrice, orderPx, triggerPxType: 'last', algoClOrdId: o.clientOrderId };
      const [ack] = await this.call('POST', '/api/v5/trade/order-algo', body);
      const placed = await this.fetchAlgo(String(ack?.algoId));
      if (!placed) throw new ExchangeUnreachableError('okx', `algo order ${String(ack?.algoId)} accepted but not found`);
      return placed;
    }
    const ordType = o.type === 'MARKET' ? 'market' : o.postOnly ? 'post_only' : o.timeInForce === 'IOC' ? 'ioc' : o.timeInForce === 'FOK' ? 'fok' : 'limit';
    const body: Json = {
      instId: inst.exchangeSymbol,
      tdMode,
      side,
      posSide: 'net',
      ordType,
      ...(o.type === 'LIMIT' && o.price ? { px: o.price } : {}),
      sz: o.qty,
      ...(o.reduceOnly ? { reduceOnly: true } : {}),
      clOrdId: o.clientOrderId,
    };
    const [ack] = await this.call('POST', '/api/v5/trade/order', body);
    return this.fetchOrder(inst, [['ordId', String(ack?.ordId)]]);
  }

  private async fetchOrder(inst: TradingInstrument, ref: Array<readonly [string, string]>): Promise<Order> {
    const [row] = await this.call('GET', '/api/v5/trade/order', [['instId', inst.exchangeSymbol], ...ref]);
    if (!row) throw new TradeRefusedError('okx', '51603', 'Order does not exist', undefined, 404);
    return this.mapOrder(row);
  }

  private async fetchAlgo(algoId: string, clientId?: string): Promise<Order | null> {
    const q: Array<readonly [string, string]> = clientId ? [['algoClOrdId', clientId]] : [['algoId', algoId]];
    try {
      const [row] = await this.call('GET', '/api/v5/trade/order-algo', q);
      return row ? this.mapAlgo(row) : null;
    } catch (err) {
      if (err instanceof TradeRefusedError && err.status !== 429) return null;
      throw err;
    }
  }

  async amend(inst: TradingInstrument, id: string, change: OrderChange): Promise<Order> {
    const [, kind, ref] = splitId(id);
    if (kind === 'a') {
      // Replace, new first: a protective stop is never absent in between.
      const current = await this.fetchAlgo(ref);
      if (!current || current.status !== 'UNTRIGGERED') throw new TradeRefusedError('okx', '', 'Only a waiting conditional order can be changed');
      const replaced = await this.place({
        symbol: inst.exchangeSymbol,
        side: current.side,
        type: current.type as NewOrder['type'],
        qty: change.qty ?? current.qty,
        ...(current.price || change.price ? { price: change.price ?? current.price ?? undefined } : {}),
        triggerPrice: change.triggerPrice ?? current.triggerPrice ?? undefined,
        reduceOnly: current.reduceOnly,
        postOnly: false,
        timeInForce: 'GTC',
        clientOrderId: nextClientId(current.clientOrderId),
      });
      await this.cancel(inst, id);
      return replaced;
    }
    if (change.triggerPrice !== undefined) throw new TradeRefusedError('okx', '', 'A limit order has no trigger price', 'triggerPrice');
    await this.call('POST', '/api/v5/trade/amend-order', {
      instId: inst.exchangeSymbol,
      ordId: ref,
      ...(change.qty !== undefined ? { newSz: change.qty } : {}),
      ...(change.price !== undefined ? { newPx: change.price } : {}),
    });
    return this.fetchOrder(inst, [['ordId', ref]]);
  }

  async cancel(inst: TradingInstrument, id: string): Promise<Order> {
    const [, kind, ref] = splitId(id);
    if (kind === 'a') {
      await this.call('POST', '/api/v5/trade/cancel-algos', [{ instId: inst.exchangeSymbol, algoId: ref }]);
      const o = await this.fetchAlgo(ref);
      if (!o) throw new TradeRefusedError('okx', '51603', 'Order does not exist', undefined, 404);
      return o;
    }
    await this.call('POST', '/api/v5/trade/cancel-order', { instId: inst.exchangeSymbol, ordId: ref });
    return this.fetchOrder(inst, [['ordId', ref]]);
  }

  async cancelAll(inst: TradingInstrument): Promise<void> {
    for (const o of await this.openOrders(inst)) {
      await this.cancel(inst, o.id).catch((err: unknown) => {
        // Gone meanwhile (filled, cancelled elsewhere): nothing left to cancel.
        if (!(err instanceof TradeRefusedError && err.status === 404)) throw err;
      });
    }
  }

  async openOrders(inst?: TradingInstrument): Promise<Order[]> {
    const scope: Array<readonly [string, string]> = inst ? [['instType', 'SWAP'], ['instId', inst.exchangeSymbol]] : [['instType', 'SWAP']];
    const known = (r: Json) => this.ctx.instrument(String(r.instId)) !== undefined;
    const [plain, conditional, trigger] = await Promise.all([
      this.call('GET', '/api/v5/trade/orders-pending', scope),
      this.call('GET', '/api/v5/trade/orders-algo-pending', [['ordType', 'conditional'], ...scope]),
      this.call('GET', '/api/v5/trade/orders-algo-pending', [['ordType', 'trigger'], ...scope]),
    ]);
    return [...plain.filter(known).map((o) => this.mapOrder(o)), ...[...conditional, ...trigger].filter(known).map((o) => this.mapAlgo(o))];
  }

  async orderByClientId(inst: TradingInstrument, clientOrderId: string, conditional: boolean): Promise<Order | null> {
    if (conditional) return this.fetchAlgo('', clientOrderId);
    try {
      return await this.fetchOrder(inst, [['clOrdId', clientOrderId]]);
    } catch (err) {
      if (err instanceof TradeRefusedError && err.status !== 429) return null;
      throw err;
    }
  }

  /** Newest first; the cursor is the oldest `ordId` of the page (OKX's `after`). */
  async orderHistory(inst: TradingInstrument, cursor?: string): Promise<Page<Order>> {
    const rows = await this.call('GET', '/api/v5/trade/orders-history', [
      ['instType', 'SWAP'],
      ['instId', inst.exchangeSymbol],
      ['limit', String(PAGE)],
      ...(cursor ? ([['after', cursor]] as const) : []),
    ]);
    return { data: rows.map((o) => this.mapOrder(o)), nextCursor: rows.length === PAGE ? String(rows[rows.length - 1].ordId) : null };
  }

  async fills(inst: TradingInstrument, cursor?: string): Promise<Page<Fill>> {
    const rows = await this.call('GET', '/api/v5/trade/fills', [
      ['instType', 'SWAP'],
      ['instId', inst.exchangeSymbol],
      ['limit', String(PAGE)],
      ...(cursor ? ([['after', cursor]] as const) : []),
    ]);
    return { data: rows.map((f) => this.mapFill(f)), nextCursor: rows.length === PAGE ? String(rows[rows.length - 1].billId) : null };
  }

  async positions(inst?: TradingInstrument): Promise<Position[]> {
    const rows = await this.call('GET', '/api/v5/account/positions', inst ? [['instType', 'SWAP'], ['instId', inst.exchangeSymbol]] : [['instType', 'SWAP']]);
    const out: Position[] = [];
    for (const p of rows) {
      const i = this.ctx.instrument(String(p.instId));
      if (!i || !Number(p.pos)) continue;
      const pos = dec(String(p.pos));
      const size = str(abs(pos));
      const mark = dec(String(p.markPx || p.last || p.avgPx));
      const inverse = i.category === 'inverse';
      // Linear: contracts × ctVal base; inverse: contracts × ctVal USD, worth ÷ mark in coin.
      const base = inverse ? div(mul(abs(pos), dec(i.contractValue)), mark, 8, 'down') : mul(abs(pos), dec(i.contractValue));
      out.push({
        exchange: 'okx',
        symbol: i.symbol,
        side: pos.units < 0n ? 'SELL' : 'BUY',
        size,
        baseQty: str(base),
        notional: inverse ? str(base) : fixed(mul(base, mark), 8),
        entryPrice: String(p.avgPx),
        markPrice: String(p.markPx),
        liquidationPrice: priceOrNull(p.liqPx),
        breakEvenPrice: priceOrNull(p.bePx) ?? String(p.avgPx),
        unrealisedPnl: String(p.upl || '0'),
        realisedPnl: String(p.realizedPnl || '0'),
        leverage: String(p.lever),
        marginMode: p.mgnMode === 'isolated' ? 'ISOLATED' : 'CROSS',
        margin: String(p.imr || p.margin || '0'),
        category: i.category,
      });
    }
    return out;
  }

  async balance(): Promise<Balance> {
    const [acc] = await this.call('GET', '/api/v5/account/balance', []);
    const details = (acc?.details as Json[] | undefined) ?? [];
    const usdt = details.find((d) => d.ccy === 'USDT');
    return {
      currency: 'USDT',
      total: String(usdt?.eq || '0'),
      available: String(usdt?.availBal || usdt?.availEq || '0'),
      unrealisedPnl: String(usdt?.upl || '0'),
      marginUsed: String(usdt?.frozenBal || usdt?.imr || '0'),
      assets: details.map((d) => ({ currency: String(d.ccy), total: String(d.eq || d.cashBal || '0'), available: String(d.availBal || d.availEq || '0') })),
    };
  }

  async setLeverage(inst: TradingInstrument, leverage: number): Promise<void> {
    await this.call('POST', '/api/v5/account/set-leverage', { instId: inst.exchangeSymbol, lever: String(leverage), mgnMode: await this.tdMode(inst) });
  }

  /**
   * OKX has no per-symbol switch (the mode is per order): the leverage is set for the new mode (so the
   * exchange knows it) and the choice is kept for this key's next orders of the symbol.
   */
  async setMarginMode(inst: TradingInstrument, mode: 'CROSS' | 'ISOLATED'): Promise<void> {
    const mgnMode = mode === 'ISOLATED' ? 'isolated' : 'cross';
    const info = await this.call('GET', '/api/v5/account/leverage-info', [['instId', inst.exchangeSymbol], ['mgnMode', mgnMode]]);
    const lever = String(info[0]?.lever ?? '10');
    await this.call('POST', '/api/v5/account/set-leverage', { instId: inst.exchangeSymbol, lever, mgnMode });
    this.ctx.prefs?.set(`mgnMode:${inst.exchangeSymbol}`, mgnMode);
  }

  /**
   * OKX keeps a leverage per symbol and margin mode, and the mode is the order's (`tdMode`): the mode is
   * the one this key's next orders of the symbol are sent with (the one last set, else the open
   * position's, else cross), and the leverage `GET /api/v5/account/leverage-info?instId=&mgnMode=`
   * answers for that mode (`lever`), position or not. A symbol never touched answers OKX's default.
   */
  async symbolSettings(inst: TradingInstrument): Promise<SymbolSettings> {
    const mgnMode = await this.tdMode(inst);
    const rows = await this.call('GET', '/api/v5/account/leverage-info', [
      ['instId', inst.exchangeSymbol],
      ['mgnMode', mgnMode],
    ]);
    const row = rows.find((r) => String(r.instId) === inst.exchangeSymbol) ?? rows[0];
    if (!row) throw new ExchangeUnreachableError('okx', `no leverage info for ${inst.exchangeSymbol}`);
    return { symbol: inst.symbol, leverage: leverageText('okx', row.lever), marginMode: mgnMode === 'isolated' ? 'ISOLATED' : 'CROSS' };
  }
}
