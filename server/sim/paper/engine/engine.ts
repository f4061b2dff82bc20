import { createContext, type EngineContext } from './context';
import { exactFixed, fixed } from './decimal';
import type { BalanceView, EngineEvent, EngineListener, PositionView } from './events';
import { cancelOrder as cancelOne, amendOrder, findOrder, placeOrder } from './orders';
import { liquidationPrice, settingsOf } from './margin';
import { onTrade } from './matching';
import { finish } from './fills';
import type { AccountSnapshot, ChangeSet, OrderRecord, SettingRecord } from './records';
import { setLeverage as setLev, setMarginMode as setMode } from './settings';
import { AccountState, isOpen, isWaiting, orderToRecord, positionToRecord, settingToRecord, type OrderState } from './state';
import type { AmendRequest, EngineEconomics, EnginePolicy, InstrumentSpec, MarginMode, OrderRef, PlaceRequest, Result, Tape, TapeTrade } from './types';
import { balanceView, positionView } from './views';

const MINUTE_MS = 60_000;

export interface PaperEngineOptions {
  tape: Tape;
  instrument(symbol: string): InstrumentSpec | undefined;
  economics: EngineEconomics;
  policy: EnginePolicy;
  /** A new account's wallets, e.g. { USDT: '10000' } or { BTC: '1' }. */
  startingBalances: Record<string, string>;
  /** Leverage of a symbol never set (capped by the instrument). Default 20 (Binance's default). */
  defaultLeverage?: number;
  /** Market orders fill at last ± this many ticks. Default 1. */
  halfSpreadTicks?: number;
  /** Ledger decimals per currency (fees and realised PnL are rounded to them). Default 8. */
  currencyDecimals?: Record<string, number>;
  /** First order/fill id of a new account. Default 1. */
  firstId?: number;
}

/**
 * The paper matching engine: accounts in memory, matched against a deterministic tape. Plain,
 * synchronous and deterministic — the same snapshot, tape and calls give the same results — and
 * it knows no exchange and no database. Every operation takes the time it happens at and first
 * processes the tape up to it. What an operation changed is journalled per account:
 * `takeChanges(id)` hands it to the store (write-through) with the events for the streams.
 * See ../README.md for the venue authors' guide.
 */
export class PaperEngine {
  private readonly ctx: EngineContext;
  private readonly accounts = new Map<string, AccountState>();
  private readonly listeners = new Set<EngineListener>();

  constructor(private readonly opts: PaperEngineOptions) {
    this.ctx = createContext({
      instrument: opts.instrument,
      economics: opts.economics,
      policy: opts.policy,
      halfSpreadTicks: opts.halfSpreadTicks ?? 1,
      currencyDecimals: opts.currencyDecimals ?? {},
      defaultLeverage: opts.defaultLeverage ?? 20,
      tape: opts.tape,
      emit: (acc, event) => {
        acc.events.push(event);
        for (const l of this.listeners) l(event);
      },
    });
  }

  /** Every event as it happens (before the store has written it — streams should use takeChanges). */
  subscribe(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The snapshot of a brand-new account at time `at`. */
  newAccount(at: number): AccountSnapshot {
    const balances = Object.entries(this.opts.startingBalances).map(([currency, amount]) => ({ currency, wallet: exactFixed(fixed(amount)) }));
    return { asOf: at, nextId: this.opts.firstId ?? 1, balances, settings: [], positions: [], orders: [] };
  }

  has(id: string): boolean {
    return this.accounts.has(id);
  }

  ids(): string[] {
    return [...this.accounts.keys()];
  }

  load(id: string, snapshot: AccountSnapshot): void {
    const acc = new AccountState(id, snapshot, this.ctx.units);
    for (const s of this.interest(acc)) {
      const last = this.opts.tape.last(s, acc.asOf);
      if (last) acc.marks.set(s, last.price);
    }
    this.accounts.set(id, acc);
  }

  unload(id: string): void {
    this.accounts.delete(id);
  }

  snapshot(id: string): AccountSnapshot {
    const acc = this.get(id);
    return {
      asOf: acc.asOf,
      nextId: acc.nextId,
      balances: [...acc.wallets].map(([currency, w]) => ({ currency, wallet: exactFixed(w) })),
      settings: [...acc.settings].map(([symbol, s]) => settingToRecord(symbol, s)),
      positions: [...acc.positions.values()].filter((p) => p.size !== 0n || p.realised !== 0n).map((p) => positionToRecord(p, this.ctx.units(p.symbol)!)),
      orders: [...acc.orders.values()].map((o) => this.record(o)),
    };
  }

  /** What changed since the last call (null if nothing), and the events in order. Clears the journal. */
  takeChanges(id: string): { changes: ChangeSet | null; events: EngineEvent[] } {
    const acc = this.get(id);
    const events = acc.events;
    const dirty = acc.dirtyOrders.size + acc.dirtyPositions.size + acc.dirtyBalances.size + acc.dirtySettings.size + acc.fills.length > 0 || acc.headerDirty;
    const changes: ChangeSet | null = dirty
      ? {
          asOf: acc.asOf,
          nextId: acc.nextId,
          orders: [...acc.dirtyOrders].flatMap((oid) => {
            const o = acc.orders.get(oid);
            return o ? [this.record(o)] : [];
          }),
          fills: acc.fills,
          positions: [...acc.dirtyPositions].map((s) => positionToRecord(acc.positions.get(s)!, this.ctx.units(s)!)),
          balances: [...acc.dirtyBalances].map((currency) => ({ currency, wallet: exactFixed(acc.wallet(currency)) })),
          settings: [...acc.dirtySettings].map((s) => settingToRecord(s, settingsOf(this.ctx, acc, s))),
        }
      : null;
    acc.dirtyOrders.clear();
    acc.dirtyPositions.clear();
    acc.dirtyBalances.clear();
    acc.dirtySettings.clear();
    acc.fills = [];
    acc.events = [];
    acc.headerDirty = false;
    acc.prune();
    return { changes, events };
  }

  /**
   * Processes every trade with asOf < time ≤ to of the symbols where the account has open orders or
   * a position, in time order across symbols, a minute at a time. With a tape `span`, a minute in
   * which no print could touch anything the account has is skipped (only the mark moves).
   */
  advance(id: string, to: number): void {
    const acc = this.get(id);
    const tape = this.opts.tape;
    let from = acc.asOf;
    while (from < to) {
      const symbols = this.interest(acc);
      if (symbols.length === 0) break;
      const end = Math.min(to, Math.floor((from + 1) / MINUTE_MS) * MINUTE_MS + MINUTE_MS - 1);
      const batch: Array<{ symbol: string; order: number; trade: TapeTrade }> = [];
      symbols.forEach((symbol, order) => {
        if (tape.span) {
          const span = tape.span(symbol, from, end);
          if (!span) return;
          if (!this.reaches(acc, symbol, span.low, span.high)) {
            acc.marks.set(symbol, span.close);
            return;
          }
        }
        for (const trade of tape.trades(symbol, from, end)) batch.push({ symbol, order, trade });
      });
      batch.sort((a, b) => a.trade.time - b.trade.time || a.order - b.order || a.trade.id - b.trade.id);
      for (const { symbol, trade } of batch) onTrade(this.ctx, acc, symbol, trade);
      from = end;
    }
    if (to > acc.asOf) acc.asOf = to;
  }

  place(id: string, req: PlaceRequest, at: number): Result<OrderRecord> {
    this.advance(id, at);
    return this.out(placeOrder(this.ctx, this.get(id), req, at));
  }

  amend(id: string, ref: OrderRef, req: AmendRequest, at: number): Result<OrderRecord> {
    this.advance(id, at);
    return this.out(amendOrder(this.ctx, this.get(id), ref, req, at));
  }

  cancel(id: string, ref: OrderRef, at: number): Result<OrderRecord> {
    this.advance(id, at);
    return this.out(cancelOne(this.ctx, this.get(id), ref, at));
  }

  /** Cancels the symbol's open orders that pass `filter` (e.g. only conditional ones); returns them. */
  cancelAll(id: string, symbol: string, at: number, filter: (o: OrderRecord) => boolean = () => true): OrderRecord[] {
    this.advance(id, at);
    const acc = this.get(id);
    const out: OrderRecord[] = [];
    for (const o of acc.openOrders(symbol)) {
      if (!filter(this.record(o))) continue;
      finish(this.ctx, acc, o, 'CANCELED', 'canceled', at);
      out.push(this.record(o));
    }
    return out;
  }

  setLeverage(id: string, symbol: string, leverage: number, at: number): Result<SettingRecord> {
    this.advance(id, at);
    const r = setLev(this.ctx, this.get(id), symbol, leverage, at);
    return r.ok ? { ok: true, value: settingToRecord(symbol, r.value) } : r;
  }

  setMarginMode(id: string, symbol: string, mode: MarginMode, at: number): Result<SettingRecord> {
    this.advance(id, at);
    const r = setMode(this.ctx, this.get(id), symbol, mode, at);
    return r.ok ? { ok: true, value: settingToRecord(symbol, r.value) } : r;
  }

  // ---- reads (call advance first to see the state at a time) ----

  balances(id: string): BalanceView[] {
    const acc = this.get(id);
    return [...acc.wallets.keys()].map((c) => balanceView(this.ctx, acc, c));
  }

  /** Open positions (non-zero size), or the one of `symbol` even when flat. */
  positions(id: string, symbol?: string): PositionView[] {
    const acc = this.get(id);
    if (symbol !== undefined) return this.ctx.units(symbol) ? [positionView(this.ctx, acc, acc.positions.get(symbol) ?? acc.position(symbol, acc.asOf))] : [];
    return [...acc.positions.values()].filter((p) => p.size !== 0n).sort((a, b) => a.symbol.localeCompare(b.symbol)).map((p) => positionView(this.ctx, acc, p));
  }

  openOrders(id: string, symbol?: string): OrderRecord[] {
    return this.get(id).openOrders(symbol).map((o) => this.record(o));
  }

  /** Orders held in memory: open ones and the recently closed (the store has every order). */
  retained(id: string): OrderRecord[] {
    return [...this.get(id).orders.values()].sort((a, b) => a.id - b.id).map((o) => this.record(o));
  }

  /** An order held in memory (open, or among the recently closed); the store has the rest. */
  order(id: string, ref: OrderRef): OrderRecord | undefined {
    const o = findOrder(this.get(id), ref);
    return o && this.record(o);
  }

  settings(id: string, symbol: string): SettingRecord {
    return settingToRecord(symbol, settingsOf(this.ctx, this.get(id), symbol));
  }

  instrument(symbol: string): InstrumentSpec | undefined {
    return this.ctx.units(symbol)?.spec;
  }

  /**
   * The tape's last trade price of `symbol` at or before `at` (the simulator's mark), with the
   * tick's decimals; null for an unknown symbol or before its first trade. For venues that value
   * one currency in another (Bybit's unified account totals are in USD).
   */
  lastPrice(symbol: string, at: number): string | null {
    const u = this.ctx.units(symbol);
    const t = u ? this.opts.tape.last(symbol, at) : null;
    return u && t ? u.priceOf(t.price) : null;
  }

  /** Symbols where the account has open orders or a position. */
  symbols(id: string): string[] {
    return this.interest(this.get(id));
  }

  private interest(acc: AccountState): string[] {
    const set = new Set<string>();
    for (const o of acc.orders.values()) if (isOpen(o)) set.add(o.symbol);
    for (const p of acc.positions.values()) if (p.size !== 0n) set.add(p.symbol);
    return [...set].sort();
  }

  /** Could a print in [low, high] ticks touch anything the account has on `symbol`? */
  private reaches(acc: AccountState, symbol: string, low: bigint, high: bigint): boolean {
    for (const o of acc.openOrders(symbol)) {
      if (isWaiting(o) && o.trigger !== null) {
        if (o.triggerDirection === 'rise' ? high >= o.trigger : low <= o.trigger) return true;
      } else if (o.price !== null && (o.side === 'BUY' ? low < o.price : high > o.price)) return true;
    }
    const p = acc.positions.get(symbol);
    if (p && p.size !== 0n) {
      const u = this.ctx.units(symbol)!;
      const lp = liquidationPrice(this.ctx, acc, p);
      if (lp !== null && (p.size > 0n ? u.priceFixed(low) <= lp : u.priceFixed(high) >= lp)) return true;
    }
    return false;
  }

  private record(o: OrderState): OrderRecord {
    return orderToRecord(o, this.ctx.units(o.symbol)!);
  }

  private out(r: Result<OrderState>): Result<OrderRecord> {
    return r.ok ? { ok: true, value: this.record(r.value) } : r;
  }

  private get(id: string): AccountState {
    const acc = this.accounts.get(id);
    if (!acc) throw new Error(`paper account ${id} is not loaded`);
    return acc;
  }
}
