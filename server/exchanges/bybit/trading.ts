import { add, dec, str } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderStatus, OrderType, Position, SymbolSettings } from '../../../src/api/contracts/trading';
import { batchTakes, orderRoute } from '../descriptor';
import { alreadySo, asJson, SignedConnector, type Json, type Params } from '../signed-request';
import { ExchangeUnreachableError } from '../transport';
import { inBatches, isConditional, isoTime, joinId, leverageText, priceOrNull, settled, splitId, timeInForceOf, triggersOnRise, UNTAGGED } from '../trading';
import type { NewOrder, OrderChange, Page, PlaceResult, TradingConnector, TradingInstrument } from '../trading';
import { BYBIT_CAPABILITIES } from './capabilities';
import { bybitProtocol } from './protocol';

/**
 * Bybit v5 trading (bybit.md, DESIGN §3.1), unified account, one-way mode. Every answer is HTTP 200
 * with `retCode` (trap 9): non-zero is an error (bybit/protocol.ts, bybit/errors.ts). Conditional orders
 * are plain orders with `triggerPrice` + `triggerDirection`; ids are `category:symbol:orderId`.
 */

const PAGE = 50;

const STATUS: Record<string, OrderStatus> = { New: 'NEW', PartiallyFilled: 'PARTIALLY_FILLED', Untriggered: 'UNTRIGGERED', Triggered: 'NEW', Filled: 'FILLED', Cancelled: 'CANCELED', PartiallyFilledCanceled: 'CANCELED', Rejected: 'REJECTED', Deactivated: 'CANCELED' };

export class BybitTrading extends SignedConnector implements TradingConnector {
  protected readonly protocol = bybitProtocol;

  async serverTime(): Promise<number> {
    const body = await this.publicGet('/v5/market/time');
    const result = body.result as Json | undefined;
    const nano = result?.timeNano;
    if (typeof nano === 'string') return Math.floor(Number(nano) / 1e6);
    if (typeof body.time === 'number') return body.time;
    throw new ExchangeUnreachableError('bybit', 'no server time');
  }

  async lastPrice(inst: TradingInstrument): Promise<string> {
    const body = await this.publicGet(`/v5/market/tickers?category=${inst.category}&symbol=${inst.exchangeSymbol}`);
    const row = (((body.result as Json | undefined)?.list as Json[] | undefined) ?? [])[0];
    if (!row || typeof row.lastPrice !== 'string') throw new ExchangeUnreachableError('bybit', `no price for ${inst.exchangeSymbol}`);
    return row.lastPrice;
  }

  /** One signed call through the shared pipeline: a GET's query, or a POST's JSON body; answers `result`. */
  private async call(method: 'GET' | 'POST', path: string, payload: Params | Json): Promise<Json> {
    const call = method === 'GET' ? { method, path, params: payload as Params } : { method, path, body: payload as Json };
    return (await this.client.send(call)) as Json;
  }


  /** A Bybit order (REST row or `order` topic item) in the one model. */
  mapOrder(o: Json): Order {
    const inst = this.inst(String(o.symbol));
    const side = o.side === 'Sell' ? 'SELL' : 'BUY';
    const trigger = priceOrNull(o.triggerPrice);
    let type: OrderType = o.orderType === 'Market' ? 'MARKET' : 'LIMIT';
    if (trigger) {
      const rises = Number(o.triggerDirection) === 1;
      const isStop = rises === (side === 'BUY');
      type = o.orderType === 'Market' ? (isStop ? 'STOP_MARKET' : 'TAKE_PROFIT_MARKET') : isStop ? 'STOP_LIMIT' : 'TAKE_PROFIT';
    }
    const tif = String(o.timeInForce ?? 'GTC');
    return {
      id: joinId(inst.category, inst.exchangeSymbol, String(o.orderId)),
      clientOrderId: typeof o.orderLinkId === 'string' && o.orderLinkId ? o.orderLinkId : null,
      exchange: 'bybit',
      symbol: inst.symbol,
      side,
      type,
      status: STATUS[String(o.orderStatus)] ?? 'OUT_OF_SYNC',
      qty: String(o.qty),
      filledQty: String(o.cumExecQty ?? '0'),
      price: o.orderType === 'Market' ? null : priceOrNull(o.price),
      triggerPrice: trigger,
      avgFillPrice: priceOrNull(o.avgPrice),
      reduceOnly: o.reduceOnly === true,
      postOnly: tif === 'PostOnly',
      timeInForce: timeInForceOf(tif),
      createdAt: isoTime(Number(o.createdTime ?? 0)),
      updatedAt: isoTime(Number(o.updatedTime ?? o.createdTime ?? 0)),
      ...UNTAGGED,
    };
  }

  private async fetchOrder(inst: TradingInstrument, ref: { orderId: string } | { orderLinkId: string }): Promise<Order | null> {
    const key = 'orderId' in ref ? (['orderId', ref.orderId] as const) : (['orderLinkId', ref.orderLinkId] as const);
    for (const path of ['/v5/order/realtime', '/v5/order/history']) {
      const r = await this.call('GET', path, [['category', inst.category], ['symbol', inst.exchangeSymbol], key]);
      const list = (r.list as Json[] | undefined) ?? [];
      if (list.length) return this.mapOrder(list[0]);
    }
    return null;
  }

  orderSymbol(id: string): string | null {
    const [category, symbol, ref] = splitId(id);
    return (category === 'linear' || category === 'inverse') && symbol && ref ? symbol : null;
  }

  async place(o: NewOrder): Promise<Order> {
    const inst = this.inst(o.symbol);
    const route = orderRoute(BYBIT_CAPABILITIES, 'bybit', o.type);
    const r = await this.call('POST', route.path, { category: inst.category, ...this.createItem(o) });
    return this.placed(inst, String(r.orderId));
  }

  /** An accepted order read back (Bybit answers only an ack, bybit.md). */
  private async placed(inst: TradingInstrument, orderId: string): Promise<Order> {
    const placed = await this.fetchOrder(inst, { orderId });
    if (!placed) throw new ExchangeUnreachableError('bybit', `order ${orderId} accepted but not found`);
    return placed;
  }

  /**
   * Orders ten to a `POST /v5/order/create-batch` (`{ category, request: [create bodies] }`; conditional
   * ones too), one call per category; each item's ack in `result.list` and its `{ code, msg }` in
   * `retExtInfo.list`. The accepted ones are read back at once, as `place` reads one back.
   */
  placeOrders(orders: readonly NewOrder[]): Promise<PlaceResult[]> {
    const caps = BYBIT_CAPABILITIES.batch;
    return inBatches(orders, {
      exchange: 'bybit',
      max: caps.place,
      batchable: (o) => batchTakes(BYBIT_CAPABILITIES, o.type),
      group: (o) => this.inst(o.symbol).category,
      single: (o) => this.place(o),
      batch: async (list) => {
        const category = this.inst(list[0].symbol).category;
        const r = await this.call('POST', caps.placeAt!.path, { category, request: list.map((o) => this.createItem(o)) });
        const acks = (r.list as Json[] | undefined) ?? [];
        const codes = (asJson(r.retExtInfo).list as Json[] | undefined) ?? [];
        return Promise.all(
          list.map((o, i): Promise<PlaceResult> => {
            const orderId = String(acks[i]?.orderId ?? '');
            const code = String(codes[i]?.code ?? (orderId ? 0 : ''));
            if (code !== '0' || !orderId) return Promise.resolve({ ok: false, error: this.client.refusal(code, String(codes[i]?.msg ?? 'refused in the batch')) });
            return settled(this.placed(this.inst(o.symbol), orderId));
          }),
        );
      },
    });
  }

  /** One `order/create` body without its category (also one item of `create-batch`). */
  private createItem(o: NewOrder): Json {
    const inst = this.inst(o.symbol);
    const route = orderRoute(BYBIT_CAPABILITIES, 'bybit', o.type);
    const limit = route.wire === 'Limit';
    return {
      symbol: inst.exchangeSymbol,
      side: o.side === 'BUY' ? 'Buy' : 'Sell',
      orderType: route.wire,
      qty: o.qty,
      ...(limit && o.price ? { price: o.price } : {}),
      // GTC is Bybit's default: sent only when it is something else (the fixtures' exact bodies).
      ...(o.postOnly ? { timeInForce: 'PostOnly' } : o.timeInForce !== 'GTC' ? { timeInForce: o.timeInForce } : {}),
      ...(isConditional(o.type)
        ? { triggerPrice: o.triggerPrice, triggerDirection: triggersOnRise(o.type, o.side) ? 1 : 2, triggerBy: 'LastPrice' }
        : {}),
      ...(o.reduceOnly ? { reduceOnly: true } : {}),
      positionIdx: 0,
      orderLinkId: o.clientOrderId,
    };
  }

  async amend(inst: TradingInstrument, id: string, change: OrderChange): Promise<Order> {
    const [, , orderId] = splitId(id);
    await this.call('POST', '/v5/order/amend', {
      category: inst.category,
      symbol: inst.exchangeSymbol,
      orderId,
      ...(change.qty !== undefined ? { qty: change.qty } : {}),
      ...(change.price !== undefined ? { price: change.price } : {}),
      ...(change.triggerPrice !== undefined ? { triggerPrice: change.triggerPrice } : {}),
    });
    const o = await this.fetchOrder(inst, { orderId });
    if (!o) throw this.client.orderGone();
    return o;
  }

  async cancel(inst: TradingInstrument, id: string): Promise<Order> {
    const [, , orderId] = splitId(id);
    await this.call('POST', '/v5/order/cancel', { category: inst.category, symbol: inst.exchangeSymbol, orderId });
    const o = await this.fetchOrder(inst, { orderId });
    if (!o) throw this.client.orderGone();
    return o;
  }

  async cancelAll(inst: TradingInstrument): Promise<void> {
    await this.call('POST', '/v5/order/cancel-all', { category: inst.category, symbol: inst.exchangeSymbol });
  }

  async openOrders(inst?: TradingInstrument): Promise<Order[]> {
    const scopes: Params[] = inst
      ? [[['category', inst.category], ['symbol', inst.exchangeSymbol]]]
      : [
          [['category', 'linear'], ['settleCoin', 'USDT']],
          [['category', 'inverse'], ['settleCoin', 'BTC']],
        ];
    const out: Order[] = [];
    for (const scope of scopes) {
      let cursor = '';
      for (let page = 0; page < 20; page++) {
        const r = await this.call('GET', '/v5/order/realtime', [...scope, ['limit', String(PAGE)], ...(cursor ? ([['cursor', cursor]] as Params) : [])]);
        out.push(...((r.list as Json[] | undefined) ?? []).filter((o) => this.ctx.instrument(String(o.symbol))).map((o) => this.mapOrder(o)));
        cursor = typeof r.nextPageCursor === 'string' ? r.nextPageCursor : '';
        if (!cursor) break;
      }
    }
    return out;
  }

  async orderByClientId(inst: TradingInstrument, clientOrderId: string): Promise<Order | null> {
    return this.fetchOrder(inst, { orderLinkId: clientOrderId });
  }

  async orderHistory(inst: TradingInstrument, cursor?: string): Promise<Page<Order>> {
    const r = await this.call('GET', '/v5/order/history', [
      ['category', inst.category],
      ['symbol', inst.exchangeSymbol],
      ['limit', String(PAGE)],
      ...(cursor ? ([['cursor', cursor]] as Params) : []),
    ]);
    const next = typeof r.nextPageCursor === 'string' && r.nextPageCursor ? r.nextPageCursor : null;
    return { data: ((r.list as Json[] | undefined) ?? []).map((o) => this.mapOrder(o)), nextCursor: next };
  }

  async fills(inst: TradingInstrument, cursor?: string): Promise<Page<Fill>> {
    const r = await this.call('GET', '/v5/execution/list', [
      ['category', inst.category],
      ['symbol', inst.exchangeSymbol],
      ['limit', String(PAGE)],
      ...(cursor ? ([['cursor', cursor]] as Params) : []),
    ]);
    const data = ((r.list as Json[] | undefined) ?? []).map((e) => this.mapFill(e));
    const next = typeof r.nextPageCursor === 'string' && r.nextPageCursor ? r.nextPageCursor : null;
    return { data, nextCursor: next };
  }

  /** A Bybit execution (REST row or `execution` topic item) in the one model. */
  mapFill(e: Json): Fill {
    const inst = this.inst(String(e.symbol));
    return {
      id: String(e.execId),
      orderId: joinId(inst.category, inst.exchangeSymbol, String(e.orderId)),
      symbol: inst.symbol,
      side: e.side === 'Sell' ? 'SELL' : 'BUY',
      qty: String(e.execQty),
      price: String(e.execPrice),
      fee: String(e.execFee),
      feeCurrency: typeof e.feeCurrency === 'string' && e.feeCurrency ? e.feeCurrency : inst.settle,
      realisedPnl: typeof e.execPnl === 'string' && e.execPnl ? e.execPnl : '0',
      time: isoTime(Number(e.execTime)),
      liquidation: e.execType === 'BustTrade' || e.execType === 'AdlTrade',
    };
  }

  async positions(inst?: TradingInstrument): Promise<Position[]> {
    const scopes: Params[] = inst
      ? [[['category', inst.category], ['symbol', inst.exchangeSymbol]]]
      : [
          [['category', 'linear'], ['settleCoin', 'USDT']],
          [['category', 'inverse'], ['settleCoin', 'BTC']],
        ];
    const out: Position[] = [];
    // The unified account's margin mode is account-wide (trap 24: the rows' tradeMode is 0 there): read
    // once, and only when there is a position to describe.
    let accountIsolated: boolean | null = null;
    const isolatedAccount = async () => (accountIsolated ??= await this.accountIsolated());
    for (const scope of scopes) {
      const r = await this.call('GET', '/v5/position/list', [...scope, ['limit', '200']]);
      for (const p of (r.list as Json[] | undefined) ?? []) {
        if (!Number(p.size) || !this.ctx.instrument(String(p.symbol))) continue;
        const isolated = Number(p.tradeMode) === 1 || (await isolatedAccount());
        out.push(bybitPosition(this.inst(String(p.symbol)), p, isolated));
      }
    }
    return out;
  }

  async balance(): Promise<Balance> {
    const r = await this.call('GET', '/v5/account/wallet-balance', [['accountType', 'UNIFIED']]);
    return bybitBalance(((r.list as Json[] | undefined) ?? [])[0] ?? {});
  }

  async setLeverage(inst: TradingInstrument, leverage: number): Promise<void> {
    const lev = String(leverage);
    try {
      await this.call('POST', '/v5/position/set-leverage', { category: inst.category, symbol: inst.exchangeSymbol, buyLeverage: lev, sellLeverage: lev });
    } catch (err) {
      // 110043 "leverage not modified": already so (bybit/errors.ts).
      if (alreadySo(bybitProtocol.errors, err)) return;
      throw err;
    }
  }

  /** Bybit's unified account sets the margin mode for the whole account (trap 24), not per symbol. */
  async setMarginMode(_inst: TradingInstrument, mode: 'CROSS' | 'ISOLATED'): Promise<void> {
    await this.call('POST', '/v5/account/set-margin-mode', { setMarginMode: mode === 'ISOLATED' ? 'ISOLATED_MARGIN' : 'REGULAR_MARGIN' });
  }

  /**
   * The leverage from `GET /v5/position/list?category=&symbol=` (with a symbol Bybit lists its row even
   * at size 0); the margin mode from `GET /v5/account/info` `marginMode`, because on the unified
   * account it is account-wide (trap 24) and the row's `tradeMode` is always 0 there (UTA 2.0):
   * `ISOLATED_MARGIN` is isolated, `REGULAR_MARGIN` and `PORTFOLIO_MARGIN` cross. A row's `tradeMode` 1
   * (classic and UTA 1.0 inverse, where it is per symbol) is isolated too. A fresh account: 10×, cross.
   */
  async symbolSettings(inst: TradingInstrument): Promise<SymbolSettings> {
    const [list, accountIsolated] = await Promise.all([
      this.call('GET', '/v5/position/list', [
        ['category', inst.category],
        ['symbol', inst.exchangeSymbol],
      ]),
      this.accountIsolated(),
    ]);
    const row = ((list.list as Json[] | undefined) ?? []).find((p) => String(p.symbol) === inst.exchangeSymbol);
    if (!row) throw new ExchangeUnreachableError('bybit', `no position row for ${inst.exchangeSymbol}`);
    const isolated = accountIsolated || Number(row.tradeMode) === 1;
    return { symbol: inst.symbol, leverage: leverageText('bybit', row.leverage), marginMode: isolated ? 'ISOLATED' : 'CROSS' };
  }

  /** The unified account's margin mode (`GET /v5/account/info`): `ISOLATED_MARGIN` is isolated; regular and portfolio margin are cross. */
  private async accountIsolated(): Promise<boolean> {
    const info = await this.call('GET', '/v5/account/info', []);
    return info.marginMode === 'ISOLATED_MARGIN';
  }
}

/** A position row (REST `/v5/position/list`, or the `position` topic, whose entry is `entryPrice`) → the contract's. */
export function bybitPosition(i: TradingInstrument, p: Json, isolated: boolean): Position {
  const size = String(p.size);
  const inverse = i.category === 'inverse';
  const entry = String(p.avgPrice ?? p.entryPrice);
  return {
    exchange: 'bybit',
    symbol: i.symbol,
    side: p.side === 'Sell' ? 'SELL' : 'BUY',
    size,
    // Inverse size is USD contracts: the base quantity is its value at the mark.
    baseQty: inverse ? String(p.positionValue) : size,
    notional: String(p.positionValue),
    entryPrice: entry,
    markPrice: String(p.markPrice),
    liquidationPrice: priceOrNull(p.liqPrice),
    breakEvenPrice: priceOrNull(p.breakEvenPrice) ?? entry,
    unrealisedPnl: String(p.unrealisedPnl),
    realisedPnl: String(p.cumRealisedPnl ?? '0'),
    leverage: String(p.leverage),
    marginMode: isolated ? 'ISOLATED' : 'CROSS',
    margin: String(p.positionIM ?? p.positionBalance ?? '0'),
    category: i.category,
  };
}

/** The unified account (REST `/v5/account/wallet-balance`'s `list[0]`, or a `wallet` topic item) → the contract's balance. */
export function bybitBalance(acc: Json): Balance {
  const coins = (acc.coin as Json[] | undefined) ?? [];
  const usdt = coins.find((c) => c.coin === 'USDT');
  return {
    currency: 'USDT',
    total: String(usdt?.equity ?? acc.totalEquity ?? '0'),
    available: String(usdt?.availableToWithdraw || acc.totalAvailableBalance || '0'),
    unrealisedPnl: String(usdt?.unrealisedPnl ?? acc.totalPerpUPL ?? '0'),
    marginUsed: str(add(dec(String(usdt?.totalPositionIM || '0')), dec(String(usdt?.totalOrderIM || '0')))),
    assets: coins.map((c) => ({ currency: String(c.coin), total: String(c.equity ?? c.walletBalance), available: String(c.availableToWithdraw || c.walletBalance) })),
  };
}
