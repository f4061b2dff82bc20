import { dec, mul, str } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderStatus, OrderType, Position, SymbolSettings } from '../../../src/api/contracts/trading';
import { batchTakes, orderRoute, type OrderRoute } from '../descriptor';
import { SignedConnector, type Json, type Params } from '../signed-request';
import { ExchangeUnreachableError } from '../transport';
import { contractPosition, inBatches, isoTime, joinId, leverageText, priceOrNull, refuseTriggerChange, replaceConditional, settled, splitId, TradeRefusedError, UNTAGGED } from '../trading';
import type { NewOrder, OrderChange, Page, PlaceResult, TradingConnector, TradingInstrument } from '../trading';
import { OKX_ALGO_PATH, OKX_CAPABILITIES } from './capabilities';
import { okxProtocol } from './protocol';

/**
 * OKX v5 trading (okx.md §5–§7), net position mode, SWAP instruments; sizes in contracts (`sz`).
 * Plain orders at `/trade/order`; stops and take-profits at `/trade/order-algo` (`conditional` for
 * reduce-only protection, `trigger` for an opening stop). A refused item's `sCode/sMsg` is the error
 * (trap 9: okx/protocol.ts, okx/errors.ts). Ids: `instId:o:ordId`, `instId:a:algoId`.
 * The margin mode is chosen per order (`tdMode`): the terminal sends the mode last set for the symbol
 * (kept with the key's connector state), else the open position's, else cross.
 */

const PAGE = 50;

const STATE: Record<string, OrderStatus> = { live: 'NEW', partially_filled: 'PARTIALLY_FILLED', filled: 'FILLED', canceled: 'CANCELED', mmp_canceled: 'CANCELED' };
const ALGO_STATE: Record<string, OrderStatus> = { live: 'UNTRIGGERED', pause: 'UNTRIGGERED', partially_effective: 'NEW', effective: 'FILLED', canceled: 'CANCELED', order_failed: 'REJECTED', partially_failed: 'REJECTED' };

export class OkxTrading extends SignedConnector implements TradingConnector {
  protected readonly protocol = okxProtocol;

  async serverTime(): Promise<number> {
    const row = ((await this.publicGet('/api/v5/public/time')).data as Json[] | undefined)?.[0];
    if (!row) throw new ExchangeUnreachableError('okx', 'no server time');
    return Number(row.ts);
  }

  async lastPrice(inst: TradingInstrument): Promise<string> {
    const row = ((await this.publicGet(`/api/v5/market/ticker?instId=${inst.exchangeSymbol}`)).data as Json[] | undefined)?.[0];
    if (!row || typeof row.last !== 'string') throw new ExchangeUnreachableError('okx', `no price for ${inst.exchangeSymbol}`);
    return row.last;
  }

  /** One signed call through the shared pipeline: a GET's query, or a POST's JSON body; answers `data`. */
  private async call(method: 'GET' | 'POST', path: string, payload: Params | Json | Json[]): Promise<Json[]> {
    const call = method === 'GET' ? { method, path, params: payload as Params } : { method, path, body: payload as Json | Json[] };
    return (await this.client.send(call)) as Json[];
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
      ...UNTAGGED,
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
      ...UNTAGGED,
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
    return this.placeIn(o, await this.tdMode(this.inst(o.symbol)));
  }

  /** One order in a known margin mode: `order` (read back by its id) or, for stops and targets, `order-algo`. */
  private async placeIn(o: NewOrder, tdMode: string): Promise<Order> {
    const route = orderRoute(OKX_CAPABILITIES, 'okx', o.type);
    if (route.path === OKX_ALGO_PATH) return this.placeAlgo(o, route, this.orderBase(o, tdMode));
    const [ack] = await this.call('POST', route.path, this.plainBody(o, tdMode));
    return this.fetchOrder(this.inst(o.symbol), [['ordId', String(ack?.ordId)]]);
  }

  private orderBase(o: NewOrder, tdMode: string): Json {
    return { instId: this.inst(o.symbol).exchangeSymbol, tdMode, side: o.side === 'BUY' ? 'buy' : 'sell', posSide: 'net' };
  }

  /** A plain order's body (also one item of `batch-orders`). */
  private plainBody(o: NewOrder, tdMode: string): Json {
    const route = orderRoute(OKX_CAPABILITIES, 'okx', o.type);
    const ordType = o.type === 'MARKET' ? route.wire : o.postOnly ? 'post_only' : o.timeInForce === 'IOC' ? 'ioc' : o.timeInForce === 'FOK' ? 'fok' : route.wire;
    return {
      ...this.orderBase(o, tdMode),
      ordType,
      ...(o.type === 'LIMIT' && o.price ? { px: o.price } : {}),
      sz: o.qty,
      ...(o.reduceOnly ? { reduceOnly: true } : {}),
      clOrdId: o.clientOrderId,
    };
  }

  /**
   * Plain orders twenty to a `POST batch-orders` (a JSON list of `order` bodies; each item's `sCode` / `sMsg`,
   * the envelope "1" / "2" when all / some failed), read back at once; stops and targets one `order-algo`
   * call each (it has no batch). The margin mode is looked up once per symbol, before any of them goes.
   */
  async placeOrders(orders: readonly NewOrder[]): Promise<PlaceResult[]> {
    const symbols = [...new Set(orders.map((o) => o.symbol))];
    const modes = new Map(await Promise.all(symbols.map(async (s) => [s, await this.tdMode(this.inst(s))] as const)));
    const modeOf = (o: NewOrder) => modes.get(o.symbol) ?? 'cross';
    return inBatches(orders, {
      exchange: 'okx',
      max: OKX_CAPABILITIES.batch.place,
      batchable: (o) => batchTakes(OKX_CAPABILITIES, o.type),
      single: (o) => this.placeIn(o, modeOf(o)),
      batch: async (list) => {
        const items = (await this.client.sendBatch({ method: 'POST', path: OKX_CAPABILITIES.batch.placeAt!.path, body: list.map((o) => this.plainBody(o, modeOf(o))) })) as Json[];
        return Promise.all(
          list.map((o, i): Promise<PlaceResult> => {
            const item = items[i] ?? {};
            const code = String(item.sCode ?? '');
            if (code !== '0' || !item.ordId) return Promise.resolve({ ok: false, error: this.client.refusal(code, String(item.sMsg ?? 'refused in the batch')) });
            return settled(this.fetchOrder(this.inst(o.symbol), [['ordId', String(item.ordId)]]));
          }),
        );
      },
    });
  }

  /** A stop or take-profit: reduce-only as `conditional` (sl / tp legs), else a `trigger` order; last-price triggers. */
  private async placeAlgo(o: NewOrder, route: OrderRoute, base: Json): Promise<Order> {
    const market = o.type === 'STOP_MARKET' || o.type === 'TAKE_PROFIT_MARKET';
    const orderPx = market ? '-1' : (o.price ?? '-1');
    const stop = o.type === 'STOP_MARKET' || o.type === 'STOP_LIMIT';
    const leg = stop ? { slTriggerPx: o.triggerPrice, slOrdPx: orderPx, slTriggerPxType: 'last' } : { tpTriggerPx: o.triggerPrice, tpOrdPx: orderPx, tpTriggerPxType: 'last' };
    const body: Json = o.reduceOnly
      ? { ...base, ordType: 'conditional', sz: o.qty, ...leg, reduceOnly: true, algoClOrdId: o.clientOrderId }
      : { ...base, ordType: route.wire, sz: o.qty, triggerPx: o.triggerPrice, orderPx, triggerPxType: 'last', algoClOrdId: o.clientOrderId };
    const [ack] = await this.call('POST', route.path, body);
    const placed = await this.fetchAlgo(String(ack?.algoId));
    if (!placed) throw new ExchangeUnreachableError('okx', `algo order ${String(ack?.algoId)} accepted but not found`);
    return placed;
  }

  private async fetchOrder(inst: TradingInstrument, ref: Params): Promise<Order> {
    const [row] = await this.call('GET', '/api/v5/trade/order', [['instId', inst.exchangeSymbol], ...ref]);
    if (!row) throw this.client.orderGone();
    return this.mapOrder(row);
  }

  private async fetchAlgo(algoId: string, clientId?: string): Promise<Order | null> {
    const q: Params = clientId ? [['algoClOrdId', clientId]] : [['algoId', algoId]];
    try {
      const [row] = await this.call('GET', '/api/v5/trade/order-algo', q);
      return row ? this.mapAlgo(row) : null;
    } catch (err) {
      if (err instanceof TradeRefusedError && err.status !== 429) return null;
      throw err;
    }
  }

  /** A plain order is amended in place (`amend-order`); an algo order is replaced, new first (capabilities: `amend`). */
  async amend(inst: TradingInstrument, id: string, change: OrderChange): Promise<Order> {
    const [, kind, ref] = splitId(id);
    if (kind === 'a') return replaceConditional(this, inst, id, await this.fetchAlgo(ref), change);
    refuseTriggerChange('okx', change);
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
      if (!o) throw this.client.orderGone();
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
    const scope: Params = inst ? [['instType', 'SWAP'], ['instId', inst.exchangeSymbol]] : [['instType', 'SWAP']];
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
      out.push(okxPosition(i, p));
    }
    return out;
  }

  async balance(): Promise<Balance> {
    const [acc] = await this.call('GET', '/api/v5/account/balance', []);
    return okxBalance(acc ?? {});
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

/** A SWAP position row (REST `/api/v5/account/positions`, or a `positions` push: the same fields) → the contract's. */
export function okxPosition(i: TradingInstrument, p: Json): Position {
  return {
    exchange: 'okx',
    symbol: i.symbol,
    // Linear: contracts × ctVal base; inverse: contracts × ctVal USD, worth ÷ mark in coin.
    ...contractPosition(i, dec(String(p.pos || '0')), dec(String(p.markPx || p.last || p.avgPx || '0'))),
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
  };
}

/** The trading account (REST `/api/v5/account/balance`'s row, or an `account` push: the same fields) → the contract's balance. */
export function okxBalance(acc: Json): Balance {
  const details = (acc.details as Json[] | undefined) ?? [];
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
