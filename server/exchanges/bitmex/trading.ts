import { dec, div, isDecimalString, str, type Decimal } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderStatus, OrderType, Position, SymbolSettings } from '../../../src/api/contracts/trading';
import { batchTakes, orderRoute } from '../descriptor';
import { SignedConnector, type Json, type Method, type Params } from '../signed-request';
import { ExchangeUnreachableError, parseJson } from '../transport';
import { contractPosition, inBatches, isoTime, joinId, leverageText, priceOrNull, splitId, TradeRefusedError, UNTAGGED } from '../trading';
import type { NewOrder, OrderChange, Page, PlaceResult, TradingConnector, TradingInstrument } from '../trading';
import { BITMEX_CAPABILITIES } from './capabilities';
import { BITMEX_ORDER_GONE } from './errors';
import { bitmexProtocol } from './protocol';

/**
 * BitMEX trading (bitmex.md §5–§7). Sizes are contracts (`orderQty`: USD contracts on XBTUSD);
 * money arrives in settlement minor units (XBt = 1e-8 XBT, USDt = 1e-6 USDT) and leaves here in
 * coins. Prices are JSON numbers on the wire: the decimal strings are written into the JSON text
 * unchanged (never through a float). Stop = stop-market, StopLimit, MarketIfTouched / LimitIfTouched =
 * take-profits; triggers on the last price (`execInst: LastPrice`). Ids: `symbol:orderID`. The signed
 * pipeline is shared (bitmex/protocol.ts: signing, envelope, rate limits; bitmex/errors.ts).
 */

const PAGE = 50;
const OPEN_PAGE = 100;
const MINOR: Record<string, { coin: string; scale: number }> = { XBt: { coin: 'XBT', scale: 8 }, USDt: { coin: 'USDT', scale: 6 }, Gwei: { coin: 'ETH', scale: 9 } };
const TYPE_FROM: Record<string, OrderType> = { Limit: 'LIMIT', Market: 'MARKET', Stop: 'STOP_MARKET', StopLimit: 'STOP_LIMIT', MarketIfTouched: 'TAKE_PROFIT_MARKET', LimitIfTouched: 'TAKE_PROFIT' };
const TIF_TO = { GTC: 'GoodTillCancel', IOC: 'ImmediateOrCancel', FOK: 'FillOrKill' } as const;

/** A minor-unit integer (satoshis) as a coin amount: 4998887 XBt → "0.04998887". */
export function fromMinor(value: unknown, currency: string): string {
  const m = MINOR[currency];
  const n = dec(String(value ?? 0));
  return m ? str(div(n, dec(10 ** m.scale), m.scale)) : str(n);
}

/** JSON with number fields written as the exact decimal text (BitMEX wants numbers, we keep exact decimals). */
export function exactJson(fields: Array<readonly [string, string | boolean | { num: string }]>): string {
  const parts = fields.map(([k, v]) => {
    if (typeof v === 'object') {
      if (!/^-?\d+(\.\d+)?$/.test(v.num)) throw new RangeError(`not a decimal: ${v.num}`);
      return `${JSON.stringify(k)}:${v.num}`;
    }
    return `${JSON.stringify(k)}:${JSON.stringify(v)}`;
  });
  return `{${parts.join(',')}}`;
}

export class BitmexTrading extends SignedConnector implements TradingConnector {
  protected readonly protocol = bitmexProtocol;

  /** BitMEX signs with an expiry, not a timestamp: the clock is read from the `Date` of a public answer. */
  async serverTime(): Promise<number> {
    const res = await this.ctx.transport({ method: 'GET', path: '/api/v1/instrument?symbol=XBTUSD&count=1&columns=timestamp', headers: {} });
    const date = res.headers?.date;
    if (date && Number.isFinite(Date.parse(date))) return Date.parse(date);
    const row = (parseJson('bitmex', res) as Json[] | undefined)?.[0];
    if (row && typeof row.timestamp === 'string') return Date.parse(row.timestamp);
    throw new ExchangeUnreachableError('bitmex', 'no server time');
  }

  async lastPrice(inst: TradingInstrument): Promise<string> {
    const res = await this.ctx.transport({ method: 'GET', path: `/api/v1/instrument?symbol=${inst.exchangeSymbol}`, headers: {} });
    const row = (parseJson('bitmex', res) as Json[])[0];
    if (!row || row.lastPrice === undefined || row.lastPrice === null) throw new ExchangeUnreachableError('bitmex', `no price for ${inst.exchangeSymbol}`);
    return String(row.lastPrice);
  }

  /** One signed call through the shared pipeline: `path` from `/api/v1`, the query, the exact JSON text (`exactJson`). */
  private call(method: Method, path: string, params: Params, body?: string): Promise<unknown> {
    return this.client.send({ method, path: `/api/v1${path}`, params, ...(body === undefined ? {} : { body }) });
  }


  mapOrder(o: Json): Order {
    const inst = this.inst(String(o.symbol));
    const type = TYPE_FROM[String(o.ordType)] ?? 'LIMIT';
    const exec = String(o.execInst ?? '');
    const conditional = type !== 'LIMIT' && type !== 'MARKET';
    let status: OrderStatus =
      ({ New: 'NEW', PartiallyFilled: 'PARTIALLY_FILLED', Filled: 'FILLED', Canceled: 'CANCELED', Rejected: 'REJECTED', Expired: 'EXPIRED', Untriggered: 'UNTRIGGERED' } as Record<string, OrderStatus>)[String(o.ordStatus)] ?? 'OUT_OF_SYNC';
    if (conditional && status === 'NEW' && !o.triggered) status = 'UNTRIGGERED';
    const tif = String(o.timeInForce ?? '');
    return {
      id: joinId(inst.exchangeSymbol, String(o.orderID)),
      clientOrderId: typeof o.clOrdID === 'string' && o.clOrdID ? o.clOrdID : null,
      exchange: 'bitmex',
      symbol: inst.symbol,
      side: o.side === 'Sell' ? 'SELL' : 'BUY',
      type,
      status,
      qty: String(o.orderQty),
      filledQty: String(o.cumQty ?? '0'),
      price: type === 'MARKET' || type === 'STOP_MARKET' || type === 'TAKE_PROFIT_MARKET' ? null : priceOrNull(o.price),
      triggerPrice: priceOrNull(o.stopPx),
      avgFillPrice: priceOrNull(o.avgPx),
      reduceOnly: /ReduceOnly|Close/.test(exec),
      postOnly: /ParticipateDoNotInitiate/.test(exec),
      timeInForce: tif === 'ImmediateOrCancel' ? 'IOC' : tif === 'FillOrKill' ? 'FOK' : 'GTC',
      createdAt: isoTime(Date.parse(String(o.transactTime ?? o.timestamp))),
      updatedAt: isoTime(Date.parse(String(o.timestamp ?? o.transactTime))),
      ...UNTAGGED,
    };
  }

  mapFill(e: Json): Fill {
    const inst = this.inst(String(e.symbol));
    const currency = String(e.settlCurrency ?? e.currency ?? 'XBt');
    const coin = MINOR[currency]?.coin ?? currency;
    return {
      id: String(e.execID),
      orderId: joinId(inst.exchangeSymbol, String(e.orderID)),
      symbol: inst.symbol,
      side: e.side === 'Sell' ? 'SELL' : 'BUY',
      qty: String(e.lastQty),
      price: String(e.lastPx),
      fee: fromMinor(e.execComm ?? 0, currency),
      feeCurrency: coin,
      realisedPnl: e.realisedPnl === undefined || e.realisedPnl === null ? '0' : fromMinor(e.realisedPnl, currency),
      time: isoTime(Date.parse(String(e.transactTime ?? e.timestamp))),
      liquidation: e.execType === 'Liquidation' || /Liquidation/.test(String(e.text ?? '')),
    };
  }

  orderSymbol(id: string): string | null {
    const [symbol, ref] = splitId(id);
    return symbol && ref ? symbol : null;
  }

  async place(o: NewOrder): Promise<Order> {
    const route = orderRoute(BITMEX_CAPABILITIES, 'bitmex', o.type);
    return this.mapOrder((await this.client.send({ method: 'POST', path: route.path, body: this.orderText(o) })) as Json);
  }

  /**
   * Orders ten to a `POST /order/bulk` (`{"orders":[…]}`, every type; the answer is the orders, a refused
   * one `Rejected` with its `text`), one call per symbol. BitMEX refuses a bulk as a whole (HTTP 400 with one
   * message): each of its orders is then looked up by client id (at once), the first not found is the one
   * refused, and any found placed is answered as placed so the caller can undo it.
   */
  placeOrders(orders: readonly NewOrder[]): Promise<PlaceResult[]> {
    const caps = BITMEX_CAPABILITIES.batch;
    return inBatches(orders, {
      exchange: 'bitmex',
      max: caps.place,
      batchable: (o) => batchTakes(BITMEX_CAPABILITIES, o.type),
      group: (o) => o.symbol,
      single: (o) => this.place(o),
      batch: async (list) => {
        const body = `{"orders":[${list.map((o) => this.orderText(o)).join(',')}]}`;
        let rows: Json[];
        try {
          rows = (await this.client.send({ method: 'POST', path: caps.placeAt!.path, body })) as Json[];
        } catch (err) {
          if (!(err instanceof TradeRefusedError) || err.status === 429) throw err;
          return this.afterRefusedBulk(list, err);
        }
        return list.map((o, i): PlaceResult => {
          const row = rows.find((r) => r.clOrdID === o.clientOrderId) ?? rows[i];
          if (!row) return { ok: false, error: new ExchangeUnreachableError('bitmex', `the bulk answered without ${o.clientOrderId}`) };
          if (row.ordStatus === 'Rejected') return { ok: false, error: this.client.refusal('400', String(row.text ?? 'Rejected')) };
          return { ok: true, order: this.mapOrder(row) };
        });
      },
    });
  }

  /** A refused bulk's orders as the exchange has them: placed (found open or done), or refused with the bulk's refusal. */
  private afterRefusedBulk(list: readonly NewOrder[], refusal: TradeRefusedError): Promise<PlaceResult[]> {
    return Promise.all(
      list.map(async (o): Promise<PlaceResult> => {
        try {
          const found = await this.orderByClientId(this.inst(o.symbol), o.clientOrderId);
          return found && found.status !== 'REJECTED' ? { ok: true, order: found } : { ok: false, error: refusal };
        } catch (err) {
          return { ok: false, error: err };
        }
      }),
    );
  }

  /** One order as BitMEX's exact JSON (prices as their decimal text): `POST /order`'s body, one item of `order/bulk`. */
  private orderText(o: NewOrder): string {
    const inst = this.inst(o.symbol);
    const route = orderRoute(BITMEX_CAPABILITIES, 'bitmex', o.type);
    const exec = [
      ...(o.type !== 'MARKET' && o.type !== 'LIMIT' ? ['LastPrice'] : []),
      ...(o.reduceOnly ? ['ReduceOnly'] : []),
      ...(o.postOnly ? ['ParticipateDoNotInitiate'] : []),
    ].join(',');
    const priced = o.type === 'LIMIT' || o.type === 'STOP_LIMIT' || o.type === 'TAKE_PROFIT';
    return exactJson([
      ['symbol', inst.exchangeSymbol],
      ['side', o.side === 'BUY' ? 'Buy' : 'Sell'],
      ['orderQty', { num: o.qty }],
      ...(priced && o.price ? ([['price', { num: o.price }]] as const) : []),
      ['ordType', route.wire],
      ...(o.triggerPrice ? ([['stopPx', { num: o.triggerPrice }]] as const) : []),
      ...(exec ? ([['execInst', exec]] as const) : []),
      ...(o.timeInForce !== 'GTC' ? ([['timeInForce', TIF_TO[o.timeInForce]]] as const) : []),
      ['clOrdID', o.clientOrderId],
    ]);
  }

  async amend(_inst: TradingInstrument, id: string, change: OrderChange): Promise<Order> {
    const [, orderID] = splitId(id);
    const body = exactJson([
      ['orderID', orderID],
      ...(change.qty !== undefined ? ([['orderQty', { num: change.qty }]] as const) : []),
      ...(change.price !== undefined ? ([['price', { num: change.price }]] as const) : []),
      ...(change.triggerPrice !== undefined ? ([['stopPx', { num: change.triggerPrice }]] as const) : []),
    ]);
    return this.mapOrder((await this.call('PUT', '/order', [], body)) as Json);
  }

  async cancel(_inst: TradingInstrument, id: string): Promise<Order> {
    const [, orderID] = splitId(id);
    const rows = (await this.call('DELETE', '/order', [], exactJson([['orderID', orderID]]))) as Json[];
    const row = rows[0];
    if (!row) throw this.client.orderGone();
    // A per-element error (unknown or already closed order) arrives with HTTP 200.
    if (typeof row.error === 'string' && row.error) throw new TradeRefusedError('bitmex', '400', row.error, undefined, BITMEX_ORDER_GONE.test(row.error) ? 404 : 422);
    return this.mapOrder(row);
  }

  async cancelAll(inst: TradingInstrument): Promise<void> {
    await this.call('DELETE', '/order/all', [], exactJson([['symbol', inst.exchangeSymbol]]));
  }

  async openOrders(inst?: TradingInstrument): Promise<Order[]> {
    const rows: Json[] = [];
    for (let start = 0; start < 2_000; start += OPEN_PAGE) {
      const page = (await this.call('GET', '/order', [
        ['filter', JSON.stringify(inst ? { open: true, symbol: inst.exchangeSymbol } : { open: true })],
        ['reverse', 'true'],
        ['count', String(OPEN_PAGE)],
        ...(start ? ([['start', String(start)]] as const) : []),
      ])) as Json[];
      rows.push(...page);
      if (page.length < OPEN_PAGE) break;
    }
    return rows.filter((o) => this.ctx.instrument(String(o.symbol))).map((o) => this.mapOrder(o));
  }

  async orderByClientId(inst: TradingInstrument, clientOrderId: string): Promise<Order | null> {
    const rows = (await this.call('GET', '/order', [['symbol', inst.exchangeSymbol], ['filter', JSON.stringify({ clOrdID: clientOrderId })], ['count', '1']])) as Json[];
    return rows[0] ? this.mapOrder(rows[0]) : null;
  }

  /** Newest first; the cursor is the time (ISO) the next page ends before. */
  async orderHistory(inst: TradingInstrument, cursor?: string): Promise<Page<Order>> {
    const rows = (await this.call('GET', '/order', [['symbol', inst.exchangeSymbol], ['reverse', 'true'], ['count', String(PAGE)], ...(cursor ? ([['endTime', cursor]] as const) : [])])) as Json[];
    const data = rows.map((o) => this.mapOrder(o));
    return { data, nextCursor: rows.length === PAGE ? new Date(Date.parse(data[data.length - 1].createdAt) - 1).toISOString() : null };
  }

  async fills(inst: TradingInstrument, cursor?: string): Promise<Page<Fill>> {
    const rows = (await this.call('GET', '/execution/tradeHistory', [['symbol', inst.exchangeSymbol], ['reverse', 'true'], ['count', String(PAGE)], ...(cursor ? ([['endTime', cursor]] as const) : [])])) as Json[];
    const data = rows.filter((e) => e.execType === undefined || e.execType === 'Trade' || e.execType === 'Liquidation').map((e) => this.mapFill(e));
    return { data, nextCursor: rows.length === PAGE && data.length ? new Date(Date.parse(data[data.length - 1].time) - 1).toISOString() : null };
  }

  async positions(inst?: TradingInstrument): Promise<Position[]> {
    const rows = (await this.call('GET', '/position', [['filter', JSON.stringify(inst ? { symbol: inst.exchangeSymbol } : { isOpen: true })]])) as Json[];
    const out: Position[] = [];
    for (const p of rows) {
      const i = this.ctx.instrument(String(p.symbol));
      if (!i || !Number(p.currentQty)) continue;
      out.push(bitmexPosition(i, p));
    }
    return out;
  }

  /** The XBt margin account (what XBTUSD and the quanto ETHUSD trade on), with every currency's wallet beside it. */
  async balance(): Promise<Balance> {
    const rows = (await this.call('GET', '/user/margin', [['currency', 'all']])) as Json[] | Json;
    return bitmexBalance(Array.isArray(rows) ? rows : [rows]);
  }

  async setLeverage(inst: TradingInstrument, leverage: number): Promise<void> {
    await this.call('POST', '/position/leverage', [], exactJson([['symbol', inst.exchangeSymbol], ['leverage', { num: String(leverage) }]]));
  }

  async setMarginMode(inst: TradingInstrument, mode: 'CROSS' | 'ISOLATED'): Promise<void> {
    await this.call('POST', '/position/isolate', [], exactJson([['symbol', inst.exchangeSymbol], ['enabled', mode === 'ISOLATED']]));
  }

  /**
   * `GET /api/v1/position?filter={"symbol":…}`: the symbol's row, flat or not, with `leverage` and
   * `crossMargin` (true: cross). BitMEX lists a symbol only once the account has touched it, and
   * neither bitmex.md nor paper-economics.md states what an untouched one uses (unverified, derived):
   * BitMEX opens positions on cross margin (`leverage: 0` = cross is the reset), and a cross row's
   * leverage is 1 ÷ the instrument's initial margin, i.e. the instrument's maximum (exchange-info
   * `maxLeverage`, itself 1 ÷ `initMargin`). So without a row: cross at that maximum. (The paper venue
   * always answers a row: an untouched symbol is cross at its default 10×.)
   */
  async symbolSettings(inst: TradingInstrument): Promise<SymbolSettings> {
    const rows = (await this.call('GET', '/position', [['filter', JSON.stringify({ symbol: inst.exchangeSymbol })]])) as Json[];
    const row = (Array.isArray(rows) ? rows : []).find((p) => String(p.symbol).toUpperCase() === inst.exchangeSymbol.toUpperCase());
    if (!row) {
      const max = inst.limits?.maxLeverage;
      if (max === undefined) throw new ExchangeUnreachableError('bitmex', `no position row for ${inst.exchangeSymbol} and no maximum leverage for its default`);
      return { symbol: inst.symbol, leverage: leverageText('bitmex', max), marginMode: 'CROSS' };
    }
    return { symbol: inst.symbol, leverage: leverageText('bitmex', row.leverage), marginMode: row.crossMargin === true ? 'CROSS' : 'ISOLATED' };
  }
}

/** The price a position's worth is taken at: its mark, else (a row before its first mark) its entry. */
function positionMark(p: Json): Decimal {
  for (const v of [p.markPrice, p.avgEntryPrice, p.lastPrice]) {
    if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && isDecimalString(v))) {
      const d = dec(v);
      if (d.units > 0n) return d;
    }
  }
  return dec('0');
}

/** A position row (REST `/position`, or the `position` table's row merged from its diffs) → the contract's. */
export function bitmexPosition(i: TradingInstrument, p: Json): Position {
  const currency = String(p.currency ?? 'XBt');
  // Inverse: USD contracts, worth contracts × value ÷ mark in coin; linear: contracts × base per contract.
  // Quanto (ETHUSD, contractValue 0.000001 XBT per contract per USD): baseQty = contracts × contractValue,
  // so that (like every linear contract) PnL = baseQty × (exit − entry) in the settle coin and the
  // chart's contract value (baseQty ÷ size) is the instrument's; it is not an ETH amount (none exists
  // without an ETH/XBT rate). Its notional is the value at the mark in XBT (contracts × 100 satoshi ×
  // mark = BitMEX's markValue): an exact USD notional would need XBT's USD price, which this call lacks.
  return {
    exchange: 'bitmex',
    symbol: i.symbol,
    ...contractPosition(i, dec(String(p.currentQty ?? '0')), positionMark(p)),
    entryPrice: String(p.avgEntryPrice),
    markPrice: String(p.markPrice),
    liquidationPrice: priceOrNull(p.liquidationPrice),
    breakEvenPrice: priceOrNull(p.breakEvenPrice) ?? String(p.avgEntryPrice),
    unrealisedPnl: fromMinor(p.unrealisedPnl, currency),
    realisedPnl: fromMinor(p.realisedPnl, currency),
    leverage: String(p.leverage),
    marginMode: p.crossMargin === true ? 'CROSS' : 'ISOLATED',
    // Money in the row's settlement minor units: XBt for XBTUSD and the quanto ETHUSD, USDt for XBTUSDT.
    margin: fromMinor(p.posMargin ?? p.maintMargin ?? 0, currency),
    category: i.category,
  };
}

/** The margin rows (REST `/user/margin?currency=all`, or the `margin` table) → the XBt account, with every currency's wallet beside it. */
export function bitmexBalance(list: Json[]): Balance {
  const xbt = list.find((m) => m.currency === 'XBt') ?? list[0] ?? {};
  const cur = String(xbt.currency ?? 'XBt');
  return {
    currency: MINOR[cur]?.coin ?? cur,
    total: fromMinor(xbt.marginBalance ?? xbt.walletBalance, cur),
    available: fromMinor(xbt.availableMargin, cur),
    unrealisedPnl: fromMinor(xbt.unrealisedPnl, cur),
    marginUsed: fromMinor(Number(xbt.initMargin ?? 0) + Number(xbt.maintMargin ?? 0), cur),
    assets: list.map((m) => {
      const c = String(m.currency);
      return { currency: MINOR[c]?.coin ?? c, total: fromMinor(m.marginBalance ?? m.walletBalance, c), available: fromMinor(m.availableMargin, c) };
    }),
  };
}
