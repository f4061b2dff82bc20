import type { ReadFor, WeightPacer } from './weight-pacer';
import type { ExchangeId, MarketCategory } from '../../src/api/contracts/common';
import type { Instrument } from '../../src/api/contracts/exchanges';
import { EXCHANGE_DISPLAY_NAMES } from '../../src/api/contracts/common';
import { abs, dec, div, fixed, isDecimalString, mul, str, type Decimal } from '../../src/api/contracts/decimal';
import type { Balance, Fill, Order, OrderRole, Position, Side, SymbolSettings, TimeInForce } from '../../src/api/contracts/trading';
import { ExchangeUnreachableError, type ExchangeCredentials, type ExchangeTransport } from './transport';

/**
 * The trading connectors' common face (DESIGN §3, §3.1): one per exchange, each speaking the
 * exchange's real private REST API and mapping its shapes to the one model and back. The same code
 * reaches the live host, the testnet/demo host or the simulator: only the transport's base differs.
 */

/** What a connector needs to know of an instrument (from the exchange-info cache), as decimal strings. */
export interface TradingInstrument {
  /** The product's pair id (`BTCUSDT`); `exchangeSymbol` is the exchange's own (`BTC-USDT-SWAP`). */
  symbol: string;
  exchangeSymbol: string;
  base: string;
  quote: string;
  settle: string;
  category: MarketCategory;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  /**
   * Base coin (linear) or USD (inverse) per contract; 1 when the order unit is the base coin. Quanto:
   * the settle coin per contract per 1 quote move (BitMEX ETHUSD: 0.000001 XBT).
   */
  contractValue: string;
  /** BitMEX quanto (ETHUSD): linear in price, settled in `settle` (XBT); see `Instrument.quanto`. */
  quanto?: boolean;
  /** What else the exchange states (price bounds, minimum value, price band, open-order caps): `Instrument.limits`. */
  limits?: Instrument['limits'];
}

/** One order as the routes hand it to a connector: already validated and rounded to tick and step. */
export interface NewOrder {
  symbol: string;
  side: Side;
  type: 'MARKET' | 'LIMIT' | 'STOP_MARKET' | 'STOP_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET';
  qty: string;
  price?: string;
  triggerPrice?: string;
  reduceOnly: boolean;
  postOnly: boolean;
  timeInForce: TimeInForce;
  /** Always set: the idempotency key (a retried request with the same id is the same order). */
  clientOrderId: string;
}

export interface OrderChange {
  price?: string;
  triggerPrice?: string;
  qty?: string;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The context an order carries in the terminal but not on the exchange (filled in by the service). */
export interface OrderTags {
  bracketId: string | null;
  role: OrderRole | null;
}

export interface TradingConnector {
  readonly exchange: ExchangeId;
  /** The exchange's clock (ms), for the skew measurement. */
  serverTime(): Promise<number>;
  /** The last traded price (public ticker): the reference of a market order's checks. */
  lastPrice(symbol: TradingInstrument): Promise<string>;
  balance(): Promise<Balance>;
  positions(symbol?: TradingInstrument): Promise<Position[]>;
  /** Open orders, waiting conditionals included. */
  openOrders(symbol?: TradingInstrument): Promise<Order[]>;
  orderHistory(symbol: TradingInstrument, cursor?: string): Promise<Page<Order>>;
  fills(symbol: TradingInstrument, cursor?: string): Promise<Page<Fill>>;
  /** One order by the terminal's client id (the reconcile after a timeout), or null when the exchange has none. */
  orderByClientId(symbol: TradingInstrument, clientOrderId: string, conditional: boolean): Promise<Order | null>;
  /** The exchange symbol an order id (as this connector made it) belongs to; null when the id is not one of ours. */
  orderSymbol(id: string): string | null;
  place(order: NewOrder): Promise<Order>;
  /**
   * Several orders in as few round trips as the exchange allows (issue 25 §1): its batch endpoint for the
   * types it takes (up to `capabilities.batch.place` a call), the rest one call each, every call at once.
   * One result per order, in the order given: placed, or refused with the exchange's code and message (or
   * an error that leaves open whether it reached the exchange). `placeOrders()` below falls back to
   * concurrent single calls for a connector without it.
   */
  placeOrders?(orders: readonly NewOrder[]): Promise<PlaceResult[]>;
  amend(symbol: TradingInstrument, id: string, change: OrderChange): Promise<Order>;
  cancel(symbol: TradingInstrument, id: string): Promise<Order>;
  cancelAll(symbol: TradingInstrument): Promise<void>;
  setLeverage(symbol: TradingInstrument, leverage: number): Promise<void>;
  setMarginMode(symbol: TradingInstrument, mode: 'CROSS' | 'ISOLATED'): Promise<void>;
  /**
   * The symbol's leverage and margin mode as the exchange holds them for the key, with or without a
   * position (issue 22): what its next order is margined with. A symbol never touched answers the
   * exchange's default.
   */
  symbolSettings(symbol: TradingInstrument): Promise<SymbolSettings>;
}

/** One order of a `placeOrders` call: the order as placed, or why not (a `TradeRefusedError` when the exchange said no). */
export type PlaceResult = { ok: true; order: Order } | { ok: false; error: unknown };

/** Settles one placement into a `PlaceResult` (never throws). */
export const settled = (p: Promise<Order>): Promise<PlaceResult> =>
  p.then(
    (order): PlaceResult => ({ ok: true, order }),
    (error: unknown): PlaceResult => ({ ok: false, error }),
  );

/** Several orders through the connector's batch path, or each on its own call, all at once — never one after another. */
export function placeOrders(c: TradingConnector, orders: readonly NewOrder[]): Promise<PlaceResult[]> {
  if (c.placeOrders) return c.placeOrders(orders);
  return Promise.all(orders.map((o) => settled(c.place(o))));
}

/** How a connector batches: which orders its batch endpoint takes, how many a call, and the two calls. */
export interface BatchPlan {
  exchange: ExchangeId;
  max: number;
  batchable(o: NewOrder): boolean;
  /** Orders of different groups never share a call (Bybit: the category; OKX, BitMEX: the margin mode, the symbol). */
  group?(o: NewOrder): string;
  /** One call of 2…max orders of one group: one result per order, in order (a failure of the whole call may throw). */
  batch(orders: readonly NewOrder[]): Promise<PlaceResult[]>;
  single(o: NewOrder): Promise<Order>;
}

/**
 * `orders` as batches of up to `max` (those the batch endpoint takes) and single calls (the rest, and a
 * batch of one), all sent at once; results back in the order given. A batch call that fails as a whole
 * answers its error for each of its orders.
 */
export async function inBatches(orders: readonly NewOrder[], plan: BatchPlan): Promise<PlaceResult[]> {
  const out: Array<Promise<PlaceResult[]>> = [];
  const index: number[][] = [];
  const batchable = orders.map((o, i) => ({ o, i })).filter(({ o }) => plan.max > 1 && plan.batchable(o));
  const groups = new Map<string, typeof batchable>();
  for (const x of batchable) {
    const key = plan.group?.(x.o) ?? '';
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  for (const members of groups.values()) {
    for (let k = 0; k < members.length; k += plan.max) {
      const chunk = members.slice(k, k + plan.max);
      index.push(chunk.map((x) => x.i));
      const list = chunk.map((x) => x.o);
      out.push(list.length === 1 ? settled(plan.single(list[0])).then((r) => [r]) : plan.batch(list).catch((error: unknown) => list.map((): PlaceResult => ({ ok: false, error }))));
    }
  }
  const taken = new Set(batchable.map((x) => x.i));
  orders.forEach((o, i) => {
    if (taken.has(i)) return;
    index.push([i]);
    out.push(settled(plan.single(o)).then((r) => [r]));
  });
  const results = await Promise.all(out);
  const byOrder: PlaceResult[] = new Array<PlaceResult>(orders.length);
  results.forEach((list, k) => index[k].forEach((i, j) => (byOrder[i] = list[j] ?? { ok: false, error: new ExchangeUnreachableError(plan.exchange, 'the batch answered without this order') })));
  return byOrder;
}

export interface ConnectorContext {
  transport: ExchangeTransport;
  creds: ExchangeCredentials;
  clock: ExchangeClock;
  /** The key's rate-limit budget as the exchange's headers report it, kept across calls. */
  gate: RateGate;
  /**
   * This server's budget with the exchange and network, shared by every key it holds (Binance counts request
   * weight per IP address, not per key: binance.md §7); budget rules marked `per: 'address'` hold it.
   */
  addressGate?: RateGate;
  /** This server's request weight with the exchange and network, shared by its keys (`RateLimitRules.pace`). */
  addressPacer?: WeightPacer;
  /**
   * Who the reads are for (`WeightPacer`): unset, a trader waiting on them; `job`, a bracket's guard (they wait
   * their turn); `background`, no one (the account state's refreshes: they leave the pacer's reserve to the others).
   */
  readsFor?: ReadFor;
  /** Per-key choices the exchange does not keep (OKX: the margin mode of a symbol's next orders). */
  prefs?: Map<string, string>;
  /** Looks an instrument up by the exchange's own symbol (orders and positions name it) or the product's. */
  instrument: (exchangeSymbol: string) => TradingInstrument | undefined;
}

/** The exchange refused an order or a change (its own code and message), answered 422 naming the field. */
export class TradeRefusedError extends Error {
  constructor(
    readonly exchange: ExchangeId,
    readonly code: string,
    readonly exchangeMessage: string,
    readonly field?: string,
    /** 404 when the order is unknown to the exchange, 429 when it says to slow down. */
    readonly status: 404 | 422 | 429 = 422,
    /** With 429: whole seconds (≥ 1) until the key's calls are let through again (the answer's `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${EXCHANGE_DISPLAY_NAMES[exchange]}: ${exchangeMessage}${code ? ` (${code})` : ''}`);
    this.name = 'TradeRefusedError';
  }
}

/**
 * The exchange's clock as this server knows it: the offset measured against its server time,
 * applied to every signature (a skewed host clock otherwise gets every call refused).
 */
export class ExchangeClock {
  private offset = 0;
  private syncedAt = -Infinity;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly local: () => number = Date.now,
    private readonly maxAgeMs = 10 * 60_000,
  ) {}

  now(): number {
    return Math.round(this.local() + this.offset);
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Measures the offset when it is older than `maxAgeMs` (or `force`): half the round trip is the transit. */
  async sync(serverTime: () => Promise<number>, force = false): Promise<void> {
    if (!force && this.local() - this.syncedAt < this.maxAgeMs) return;
    this.syncing ??= (async () => {
      const t0 = this.local();
      const server = await serverTime();
      const t1 = this.local();
      this.offset = server - (t0 + t1) / 2;
      this.syncedAt = t1;
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }
}

/**
 * The exchanges' own rate-limit headers, read after every answer: when the budget left is below the
 * reserve the next calls are refused here with a clear message (429) until the window resets, before
 * the exchange bans the key or the IP.
 */
export class RateGate {
  private blockedUntil = 0;
  constructor(
    private readonly exchange: ExchangeId,
    private readonly now: () => number = Date.now,
    /** What the exchange would ban: the key, or this server's address (a budget counted per IP). */
    private readonly banned: 'key' | 'address' = 'key',
  ) {}

  /** Whether calls are held now. */
  get held(): boolean {
    return this.blockedUntil - this.now() > 0;
  }

  check(): void {
    if (this.held) {
      const seconds = this.retryAfterSeconds();
      throw new TradeRefusedError(
        this.exchange,
        '',
        `rate limit nearly used up: this server holds further requests for ${seconds} s so the exchange does not ban ${this.banned === 'key' ? 'the key' : "this server's address"}`,
        undefined,
        429,
        seconds,
      );
    }
  }

  /**
   * Whole seconds until calls pass again, at least 1 (HTTP's `Retry-After` has no fractions, and 0 invites
   * a hammering). A connector refusing on the exchange's "slow down" holds the gate first and passes this
   * on, so the client's `Retry-After` and this server's hold end together.
   */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.blockedUntil - this.now()) / 1000));
  }

  /** Holds calls for `delayMs` from now (a wait that is not a number holds nothing). */
  holdFor(delayMs: number): void {
    if (Number.isFinite(delayMs)) this.blockedUntil = Math.max(this.blockedUntil, this.now() + delayMs);
  }

  /** Holds calls until the exchange's current window of `periodMs` (aligned to the epoch) ends. */
  holdUntilWindowEnds(periodMs: number): void {
    const now = this.now();
    this.blockedUntil = Math.max(this.blockedUntil, Math.ceil((now + 1) / periodMs) * periodMs);
  }

  /** Holds calls until an absolute time (an exchange's reset timestamp, on its clock `skewMs` ahead of ours). */
  holdUntil(untilMs: number, skewMs = 0): void {
    if (Number.isFinite(untilMs - skewMs)) this.blockedUntil = Math.max(this.blockedUntil, untilMs - skewMs);
  }
}

/**
 * An HTTP `Retry-After` value as milliseconds from `nowMs`: delta-seconds (`"7"`, what the exchanges
 * send) or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/** `a:b:c` ids: the exchange's id plus what the connector needs to address it again (symbol, book). */
export const joinId = (...parts: string[]): string => parts.map(encodeURIComponent).join(':');
/**
 * The parts of an id `joinId` made. A part whose percent-encoding does not decode (`%E0%A4%A`, `%`)
 * was not made by `joinId`: it comes back empty, so `orderSymbol` says "not one of ours" instead of
 * throwing a URIError (a 500) from whatever id a client sends.
 */
export const splitId = (id: string): string[] =>
  id.split(':').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return '';
    }
  });

/**
 * A leverage as the exchange printed it (`"20"`, `10`, `"12.50"`) as decimal text (`"20"`, `"10"`, `"12.5"`);
 * anything else is an answer this server cannot read (502), never a made-up value.
 */
export function leverageText(exchange: ExchangeId, value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!isDecimalString(text) || text.startsWith('-')) throw new ExchangeUnreachableError(exchange, `unreadable leverage ${JSON.stringify(value)}`);
  const out = str(dec(text));
  if (out === '0') throw new ExchangeUnreachableError(exchange, 'leverage 0');
  return out;
}

export const isoTime = (ms: number | string): string => new Date(Number(ms)).toISOString();

/** `"0"`, `""` and absent all mean "no price" on the exchanges' wire. */
export function priceOrNull(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  const s = String(v);
  return Number(s) === 0 ? null : s;
}

/** Triggers for a side: a stop buys on the way up and sells on the way down; a take-profit the opposite. */
export function triggersOnRise(type: NewOrder['type'], side: Side): boolean {
  const isStop = type === 'STOP_MARKET' || type === 'STOP_LIMIT';
  return isStop ? side === 'BUY' : side === 'SELL';
}

export const isConditional = (type: NewOrder['type']): boolean => type !== 'MARKET' && type !== 'LIMIT';

/** The model's time in force from an exchange's text: IOC and FOK as they are, anything else GTC. */
export const timeInForceOf = (tif: string): TimeInForce => (tif === 'IOC' || tif === 'FOK' ? tif : 'GTC');

/** A mapped order's tags: none on the exchange (the service fills them in from its records). */
export const UNTAGGED: OrderTags = { bracketId: null, role: null };

/** The order types the routes hand to a connector (`NewOrder['type']`), in the order-entry panel's order. */
export const ORDER_TYPES: ReadonlyArray<NewOrder['type']> = ['MARKET', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'];
export const isOrderType = (type: string): type is NewOrder['type'] => (ORDER_TYPES as readonly string[]).includes(type);

/** A replaced order's client id: the original with a revision suffix, still letters and digits ≤ 32. */
export function nextClientId(id: string | null): string {
  const base = (id ?? 'r').replace(/R\d+$/, '');
  const rev = Number(/R(\d+)$/.exec(id ?? '')?.[1] ?? 0) + 1;
  return `${base.slice(0, 32 - String(rev).length - 1)}R${rev}`;
}

/** A plain order has no trigger to change (Binance and OKX amend plain orders without one). */
export function refuseTriggerChange(exchange: ExchangeId, change: OrderChange): void {
  if (change.triggerPrice !== undefined) throw new TradeRefusedError(exchange, '', 'A limit order has no trigger price', 'triggerPrice');
}

/**
 * A change of a waiting conditional order on an exchange that cannot modify one (Binance, OKX: capability
 * `amend.conditional: 'replace'`): the changed copy is placed first, then the original cancelled, so a
 * protective stop is never absent in between. The copy's client id is the original's next revision.
 */
export async function replaceConditional(
  connector: Pick<TradingConnector, 'exchange' | 'place' | 'cancel'>,
  inst: TradingInstrument,
  id: string,
  current: Order | null,
  change: OrderChange,
): Promise<Order> {
  if (!current || current.status !== 'UNTRIGGERED' || !isOrderType(current.type)) {
    throw new TradeRefusedError(connector.exchange, '', 'Only a waiting conditional order can be changed', undefined, 422);
  }
  const replaced = await connector.place({
    symbol: inst.exchangeSymbol,
    side: current.side,
    type: current.type,
    qty: change.qty ?? current.qty,
    price: change.price ?? current.price ?? undefined,
    triggerPrice: change.triggerPrice ?? current.triggerPrice ?? undefined,
    reduceOnly: current.reduceOnly,
    postOnly: false,
    timeInForce: current.timeInForce,
    clientOrderId: nextClientId(current.clientOrderId),
  });
  await connector.cancel(inst, id);
  return replaced;
}

/**
 * A position held in contracts (OKX, BitMEX) in the one model's terms: the side of the signed size, the
 * size in contracts, the base quantity (linear and quanto: contracts × contract value; inverse: contracts ×
 * USD value ÷ mark, in coin, rounded down to the satoshi) and the notional (linear: base × mark to 8
 * places; inverse: the coin value itself).
 */
export function contractPosition(inst: TradingInstrument, contracts: Decimal, mark: Decimal): Pick<Position, 'side' | 'size' | 'baseQty' | 'notional'> {
  const inverse = inst.category === 'inverse';
  const value = mul(abs(contracts), dec(inst.contractValue));
  // A flat position is worth nothing at any mark (BitMEX's diff on a close may carry no mark at all).
  if (inverse && value.units !== 0n && mark.units === 0n) throw new Error(`${inst.symbol}: an inverse position without a mark price`);
  const base = inverse && value.units !== 0n ? div(value, mark, 8, 'down') : value;
  return { side: contracts.units < 0n ? 'SELL' : 'BUY', size: str(abs(contracts)), baseQty: str(base), notional: inverse ? str(base) : fixed(mul(base, mark), 8) };
}
