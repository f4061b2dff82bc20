import { dec, div, fixed } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderStatus, OrderType, Position, SymbolSettings } from '../../../src/api/contracts/trading';
import { batchTakes, orderRoute } from '../descriptor';
import { alreadySo, asJson, SignedConnector, type Json, type Method, type Params } from '../signed-request';
import { ExchangeUnreachableError } from '../transport';
import { inBatches, isoTime, joinId, leverageText, priceOrNull, refuseTriggerChange, replaceConditional, splitId, timeInForceOf, TradeRefusedError, UNTAGGED } from '../trading';
import type { NewOrder, OrderChange, Page, PlaceResult, TradingConnector, TradingInstrument } from '../trading';
import { BINANCE_ALGO_PATH, BINANCE_CAPABILITIES } from './capabilities';
import { binanceProtocol } from './protocol';

/**
 * Binance USDⓈ-M trading (binance.md §5–§7, DESIGN §3.1). Conditional types go through the algo
 * service (`/fapi/v1/algoOrder`, trap 10); ids are `symbol:o:orderId` or `symbol:a:algoId`. Parameters
 * are sent in the fixtures' order, in the query (GET/DELETE) or the form body (POST/PUT), signature last
 * (binance/protocol.ts); the signed pipeline, the error table and the rate-limit rules are shared.
 */

const PAGE = 50;

export const BINANCE_ORDER_STATUS: Record<string, OrderStatus> = { NEW: 'NEW', PARTIALLY_FILLED: 'PARTIALLY_FILLED', FILLED: 'FILLED', CANCELED: 'CANCELED', REJECTED: 'REJECTED', EXPIRED: 'EXPIRED', EXPIRED_IN_MATCH: 'EXPIRED' };
export const BINANCE_ALGO_STATUS: Record<string, OrderStatus> = { NEW: 'UNTRIGGERED', TRIGGERING: 'NEW', TRIGGERED: 'NEW', FINISHED: 'FILLED', CANCELED: 'CANCELED', EXPIRED: 'EXPIRED', REJECTED: 'REJECTED' };
/** Binance's order types ↔ the model's (Binance STOP / TAKE_PROFIT carry a limit price). */
export const BINANCE_TYPE_FROM: Record<string, OrderType> = { LIMIT: 'LIMIT', MARKET: 'MARKET', STOP: 'STOP_LIMIT', STOP_MARKET: 'STOP_MARKET', TAKE_PROFIT: 'TAKE_PROFIT', TAKE_PROFIT_MARKET: 'TAKE_PROFIT_MARKET', TRAILING_STOP_MARKET: 'TRAILING_STOP_MARKET' };

export class BinanceTrading extends SignedConnector implements TradingConnector {
  protected readonly protocol = binanceProtocol;

  async serverTime(): Promise<number> {
    const body = await this.publicGet('/fapi/v1/time');
    if (typeof body.serverTime !== 'number') throw new ExchangeUnreachableError('binance', 'no server time');
    return body.serverTime;
  }

  async lastPrice(inst: TradingInstrument): Promise<string> {
    const body = await this.publicGet(`/fapi/v1/ticker/24hr?symbol=${inst.exchangeSymbol}`);
    if (typeof body.lastPrice !== 'string') throw new ExchangeUnreachableError('binance', `no price for ${inst.exchangeSymbol}`);
    return body.lastPrice;
  }

  /** One signed call through the shared pipeline (binance/protocol.ts: signing, envelope, error table, rate limits). */
  private call(method: Method, path: string, params: Params): Promise<unknown> {
    return this.client.send({ method, path, params });
  }


  private order(o: Json): Order {
    const inst = this.inst(String(o.symbol));
    const tif = String(o.timeInForce ?? 'GTC');
    return {
      id: joinId(inst.exchangeSymbol, 'o', String(o.orderId)),
      clientOrderId: typeof o.clientOrderId === 'string' ? o.clientOrderId : null,
      exchange: 'binance',
      symbol: inst.symbol,
      side: o.side === 'SELL' ? 'SELL' : 'BUY',
      type: BINANCE_TYPE_FROM[String(o.origType ?? o.type)] ?? 'LIMIT',
      status: BINANCE_ORDER_STATUS[String(o.status)] ?? 'OUT_OF_SYNC',
      qty: String(o.origQty),
      filledQty: String(o.executedQty ?? '0'),
      price: priceOrNull(o.price),
      triggerPrice: priceOrNull(o.stopPrice),
      avgFillPrice: priceOrNull(o.avgPrice),
      reduceOnly: o.reduceOnly === true || o.closePosition === true,
      postOnly: tif === 'GTX',
      timeInForce: timeInForceOf(tif),
      createdAt: isoTime(Number(o.time ?? o.updateTime ?? 0)),
      updatedAt: isoTime(Number(o.updateTime ?? o.time ?? 0)),
      ...UNTAGGED,
    };
  }

  private algo(o: Json): Order {
    const inst = this.inst(String(o.symbol));
    const tif = String(o.timeInForce ?? 'GTC');
    return {
      id: joinId(inst.exchangeSymbol, 'a', String(o.algoId)),
      clientOrderId: typeof o.clientAlgoId === 'string' ? o.clientAlgoId : null,
      exchange: 'binance',
      symbol: inst.symbol,
      side: o.side === 'SELL' ? 'SELL' : 'BUY',
      type: BINANCE_TYPE_FROM[String(o.orderType)] ?? 'CONDITIONAL',
      status: BINANCE_ALGO_STATUS[String(o.algoStatus)] ?? 'OUT_OF_SYNC',
      qty: String(o.quantity),
      filledQty: o.algoStatus === 'FINISHED' ? String(o.quantity) : '0',
      price: priceOrNull(o.price),
      triggerPrice: priceOrNull(o.triggerPrice),
      avgFillPrice: priceOrNull(o.actualPrice),
      reduceOnly: o.reduceOnly === true || o.closePosition === true,
      postOnly: tif === 'GTX',
      timeInForce: timeInForceOf(tif),
      createdAt: isoTime(Number(o.createTime ?? 0)),
      updatedAt: isoTime(Number(o.updateTime ?? o.createTime ?? 0)),
      ...UNTAGGED,
    };
  }

  orderSymbol(id: string): string | null {
    const [symbol, kind, ref] = splitId(id);
    return symbol && (kind === 'o' || kind === 'a') && /^\d+$/.test(ref ?? '') ? symbol : null;
  }

  async place(o: NewOrder): Promise<Order> {
    const inst = this.inst(this.exchangeSymbolOf(o.symbol));
    const route = orderRoute(BINANCE_CAPABILITIES, 'binance', o.type);
    if (route.path === BINANCE_ALGO_PATH) {
      const limit = o.type === 'STOP_LIMIT' || o.type === 'TAKE_PROFIT';
      const tif: Params = limit ? [['timeInForce', o.postOnly ? 'GTX' : o.timeInForce]] : [];
      const price: Params = limit && o.price ? [['price', o.price]] : [];
      const reduceOnly: Params = o.reduceOnly ? [['reduceOnly', 'true']] : [];
      const params: Params = [
        ['algoType', 'CONDITIONAL'],
        ['symbol', inst.exchangeSymbol],
        ['side', o.side],
        ['type', route.wire],
        ...tif,
        ['quantity', o.qty],
        ...price,
        ['triggerPrice', o.triggerPrice ?? ''],
        // The terminal's triggers are on the last price (SPEC: "when the last price crosses").
        ['workingType', 'CONTRACT_PRICE'],
        ...reduceOnly,
        ['clientAlgoId', o.clientOrderId],
      ];
      return this.algo((await this.call('POST', route.path, params)) as Json);
    }
    return this.order((await this.call('POST', route.path, this.plainParams(o))) as Json);
  }

  /** A plain order's parameters, in the fixtures' order (also one item of `batchOrders`). */
  private plainParams(o: NewOrder): Params {
    const route = orderRoute(BINANCE_CAPABILITIES, 'binance', o.type);
    const limit = o.type === 'LIMIT';
    return [
      ['symbol', this.inst(this.exchangeSymbolOf(o.symbol)).exchangeSymbol],
      ['side', o.side],
      ['type', route.wire],
      ...(limit ? ([['timeInForce', o.postOnly ? 'GTX' : o.timeInForce]] as Params) : []),
      ['quantity', o.qty],
      ...(limit && o.price ? ([['price', o.price]] as Params) : []),
      ...(o.reduceOnly ? ([['reduceOnly', 'true']] as Params) : []),
      ['newClientOrderId', o.clientOrderId],
      ['newOrderRespType', 'RESULT'],
    ];
  }

  /**
   * Plain orders five to a `POST /fapi/v1/batchOrders` (`batchOrders`: a JSON list of /fapi/v1/order's
   * parameters, each answered in order as that order or its `{ code, msg }`); stops and take-profits one
   * `algoOrder` call each (the algo service has no batch). Every call at once.
   */
  placeOrders(orders: readonly NewOrder[]): Promise<PlaceResult[]> {
    const at = BINANCE_CAPABILITIES.batch.placeAt!;
    return inBatches(orders, {
      exchange: 'binance',
      max: BINANCE_CAPABILITIES.batch.place,
      batchable: (o) => batchTakes(BINANCE_CAPABILITIES, o.type),
      single: (o) => this.place(o),
      batch: async (list) => {
        const items = list.map((o) => Object.fromEntries(this.plainParams(o)));
        const answers = (await this.call('POST', at.path, [['batchOrders', JSON.stringify(items)]])) as unknown[];
        return list.map((_, i): PlaceResult => {
          const a = asJson(answers[i]);
          if (a.orderId !== undefined) return { ok: true, order: this.order(a) };
          return { ok: false, error: this.client.refusal(String(a.code ?? ''), typeof a.msg === 'string' ? a.msg : 'refused in the batch') };
        });
      },
    });
  }

  /** Orders name the product symbol; Binance's own symbol is the same (exchange-info: `symbol` = `exchangeSymbol`). */
  private exchangeSymbolOf(symbol: string): string {
    return symbol;
  }

  /** A limit order is modified in place (`PUT`); a waiting conditional is replaced, new first (capabilities: `amend`). */
  async amend(inst: TradingInstrument, id: string, change: OrderChange): Promise<Order> {
    const [, kind, ref] = splitId(id);
    if (kind === 'a') {
      const current = this.algo((await this.call('GET', BINANCE_ALGO_PATH, [['algoId', ref]])) as Json);
      return replaceConditional(this, inst, id, current, change);
    }
    refuseTriggerChange('binance', change);
    const current = this.order((await this.call('GET', '/fapi/v1/order', [['symbol', inst.exchangeSymbol], ['orderId', ref]])) as Json);
    const params: Params = [
      ['symbol', inst.exchangeSymbol],
      ['orderId', ref],
      ['side', current.side],
      ['quantity', change.qty ?? current.qty],
      ['price', change.price ?? current.price ?? ''],
    ];
    return this.order((await this.call('PUT', '/fapi/v1/order', params)) as Json);
  }

  async cancel(inst: TradingInstrument, id: string): Promise<Order> {
    const [, kind, ref] = splitId(id);
    if (kind === 'a') {
      await this.call('DELETE', '/fapi/v1/algoOrder', [['algoId', ref]]);
      return this.algo((await this.call('GET', '/fapi/v1/algoOrder', [['algoId', ref]])) as Json);
    }
    return this.order((await this.call('DELETE', '/fapi/v1/order', [['symbol', inst.exchangeSymbol], ['orderId', ref]])) as Json);
  }

  async cancelAll(inst: TradingInstrument): Promise<void> {
    await this.call('DELETE', '/fapi/v1/allOpenOrders', [['symbol', inst.exchangeSymbol]]);
    await this.call('DELETE', '/fapi/v1/algoOpenOrders', [['symbol', inst.exchangeSymbol]]);
  }

  async openOrders(inst?: TradingInstrument): Promise<Order[]> {
    const q: Params = inst ? [['symbol', inst.exchangeSymbol]] : [];
    const [plain, algos] = await Promise.all([this.call('GET', '/fapi/v1/openOrders', q), this.call('GET', '/fapi/v1/openAlgoOrders', q)]);
    return [...(plain as Json[]).map((o) => this.order(o)), ...(algos as Json[]).map((o) => this.algo(o))];
  }

  async orderByClientId(inst: TradingInstrument, clientOrderId: string, conditional: boolean): Promise<Order | null> {
    try {
      if (conditional) return this.algo((await this.call('GET', '/fapi/v1/algoOrder', [['clientAlgoId', clientOrderId]])) as Json);
      return this.order((await this.call('GET', '/fapi/v1/order', [['symbol', inst.exchangeSymbol], ['origClientOrderId', clientOrderId]])) as Json);
    } catch (err) {
      if (err instanceof TradeRefusedError && err.status === 404) return null;
      throw err;
    }
  }

  /** Newest first; the cursor is the time (ms) the next page ends before. */
  async orderHistory(inst: TradingInstrument, cursor?: string): Promise<Page<Order>> {
    const end: Params = cursor ? [['endTime', String(Number(cursor) - 1)]] : [];
    const [plain, algos] = await Promise.all([
      this.call('GET', '/fapi/v1/allOrders', [['symbol', inst.exchangeSymbol], ...end, ['limit', String(PAGE)]]),
      this.call('GET', '/fapi/v1/allAlgoOrders', [['symbol', inst.exchangeSymbol], ...end, ['limit', String(PAGE)]]),
    ]);
    const all = [...(plain as Json[]).map((o) => this.order(o)), ...(algos as Json[]).map((o) => this.algo(o))].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const data = all.slice(0, PAGE);
    const full = (plain as Json[]).length === PAGE || (algos as Json[]).length === PAGE;
    return { data, nextCursor: full && data.length ? String(Date.parse(data[data.length - 1].createdAt)) : null };
  }

  async fills(inst: TradingInstrument, cursor?: string): Promise<Page<Fill>> {
    const end: Params = cursor ? [['endTime', String(Number(cursor) - 1)]] : [];
    const rows = (await this.call('GET', '/fapi/v1/userTrades', [['symbol', inst.exchangeSymbol], ...end, ['limit', String(PAGE)]])) as Json[];
    const data = rows
      .map(
        (t): Fill => ({
          id: String(t.id),
          orderId: joinId(inst.exchangeSymbol, 'o', String(t.orderId)),
          symbol: inst.symbol,
          side: t.side === 'SELL' ? 'SELL' : 'BUY',
          qty: String(t.qty),
          price: String(t.price),
          fee: String(t.commission),
          feeCurrency: String(t.commissionAsset),
          realisedPnl: String(t.realizedPnl),
          time: isoTime(Number(t.time)),
          liquidation: false,
        }),
      )
      .sort((a, b) => b.time.localeCompare(a.time) || Number(b.id) - Number(a.id));
    return { data, nextCursor: rows.length === PAGE && data.length ? String(Date.parse(data[data.length - 1].time)) : null };
  }

  async positions(inst?: TradingInstrument): Promise<Position[]> {
    const rows = (await this.call('GET', '/fapi/v2/positionRisk', inst ? [['symbol', inst.exchangeSymbol]] : [])) as Json[];
    const out: Position[] = [];
    for (const r of rows) {
      const amt = String(r.positionAmt);
      if (Number(amt) === 0) continue;
      const i = this.inst(String(r.symbol));
      const size = amt.replace(/^-/, '');
      const isolated = String(r.marginType).toLowerCase() === 'isolated';
      out.push({
        exchange: 'binance',
        symbol: i.symbol,
        side: amt.startsWith('-') ? 'SELL' : 'BUY',
        size,
        baseQty: size,
        notional: String(r.notional).replace(/^-/, ''),
        entryPrice: String(r.entryPrice),
        markPrice: String(r.markPrice),
        liquidationPrice: priceOrNull(r.liquidationPrice),
        breakEvenPrice: String(r.breakEvenPrice ?? r.entryPrice),
        unrealisedPnl: String(r.unRealizedProfit),
        realisedPnl: '0',
        leverage: String(r.leverage),
        marginMode: isolated ? 'ISOLATED' : 'CROSS',
        margin: isolated ? String(r.isolatedMargin) : divide(String(r.notional).replace(/^-/, ''), Number(r.leverage)),
        category: 'linear',
      });
    }
    return out;
  }

  async balance(): Promise<Balance> {
    const acc = (await this.call('GET', '/fapi/v3/account', [])) as Json;
    const assets = Array.isArray(acc.assets) ? (acc.assets as Json[]) : [];
    return {
      currency: 'USDT',
      total: String(acc.totalMarginBalance ?? acc.totalWalletBalance),
      available: String(acc.availableBalance),
      unrealisedPnl: String(acc.totalUnrealizedProfit),
      marginUsed: String(acc.totalInitialMargin),
      assets: assets.map((a) => ({ currency: String(a.asset), total: String(a.walletBalance), available: String(a.availableBalance) })),
    };
  }

  async setLeverage(inst: TradingInstrument, leverage: number): Promise<void> {
    await this.call('POST', '/fapi/v1/leverage', [['symbol', inst.exchangeSymbol], ['leverage', String(Math.round(leverage))]]);
  }

  async setMarginMode(inst: TradingInstrument, mode: 'CROSS' | 'ISOLATED'): Promise<void> {
    try {
      await this.call('POST', '/fapi/v1/marginType', [['symbol', inst.exchangeSymbol], ['marginType', mode === 'CROSS' ? 'CROSSED' : 'ISOLATED']]);
    } catch (err) {
      // -4046 "No need to change margin type.": already so (binance/errors.ts).
      if (alreadySo(binanceProtocol.errors, err)) return;
      throw err;
    }
  }

  /**
   * `GET /fapi/v2/positionRisk?symbol=` lists the symbol's row even while `positionAmt` is 0 (one-way
   * mode: one row; hedge mode: LONG and SHORT, which share leverage and margin type): `leverage` and
   * `marginType` ("cross" / "isolated"). A symbol never touched answers Binance's default (20×, cross).
   */
  async symbolSettings(inst: TradingInstrument): Promise<SymbolSettings> {
    const rows = (await this.call('GET', '/fapi/v2/positionRisk', [['symbol', inst.exchangeSymbol]])) as Json[];
    const row = rows.find((r) => String(r.symbol) === inst.exchangeSymbol);
    if (!row) throw new ExchangeUnreachableError('binance', `no position risk row for ${inst.exchangeSymbol}`);
    return {
      symbol: inst.symbol,
      leverage: leverageText('binance', row.leverage),
      marginMode: String(row.marginType).toLowerCase() === 'isolated' ? 'ISOLATED' : 'CROSS',
    };
  }
}

/** Notional ÷ leverage to 8 places (Binance v2 rows carry no cross position margin). */
function divide(notional: string, leverage: number): string {
  return leverage > 0 ? fixed(div(dec(notional), dec(leverage), 8, 'up'), 8) : '0';
}
