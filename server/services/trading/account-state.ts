import type { Network } from '../../../src/api/contracts/common';
import { cmp, dec } from '../../../src/api/contracts/decimal';
import type { Balance, Fill, Order, Position, StreamState } from '../../../src/api/contracts/trading';
import type { AccountPart, OpenSocket, PrivateEvent, PrivateStream, PrivateStreamDriver } from '../../exchanges/private-stream';
import { TradeRefusedError, type ConnectorContext, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import { AccountRest } from './account-rest';
import { tagOrder } from './ids';

/**
 * A key's account as the server holds it (issue 26 §2): open orders, positions and balance, kept from the
 * key's private stream. One per key per instance (`account-states.ts` shares it), read by the pre-send
 * checks, the browser's account stream and the bracket guards instead of a REST read each.
 *
 * - **Snapshot** (REST: open orders, positions, balance) at every (re)connect and on a slow timer
 *   (`snapshotMs`, 60 s). Events that arrive while it is being read are applied after it, in order.
 * - **Orders** from the stream's order events: an open one is upserted, a final one (filled, cancelled,
 *   rejected, expired) leaves the open set and is kept among the recent ones (the guards read a leg's end).
 * - **Positions and balance** from the stream's pushes (`position`, `balance` events), applied as they come.
 *   A fill makes them stale until the push that follows it lands; when none comes within `pushWaitMs`
 *   (1 s), or a push lacks a field the state cannot take from its last read of the symbol, or the stream
 *   only signals a change (`account`: Binance's balance), the part is re-read over REST once per burst
 *   (`refreshMs`). Until then, and while it is read, `fresh` is false.
 * - **Gaps**: a dropped stream is a gap — the state is not fresh until the reconnect's snapshot lands.
 */

export interface AccountView {
  orders: Order[];
  positions: Position[];
  balance: Balance;
}

export interface AccountListener {
  status?(state: StreamState, reason: string | undefined): void;
  /** The whole state was read again (connect, reconnect, the slow timer). */
  snapshot?(view: AccountView): void;
  order?(order: Order): void;
  fill?(fill: Fill): void;
  /** Positions or balance changed (pushed by the stream, or read again after it said they changed). */
  account?(view: AccountView): void;
  error?(message: string): void;
}

export interface AccountStateDeps {
  key: { id: string; network: Network };
  /** Reads the guards wait on (the (re)connect's snapshot, a position change): a job's on the address's weight. */
  connector: TradingConnector;
  /** Reads no one waits on (the slow reconcile, the balance after a fill), where the exchange weighs them per address; else `connector`. */
  background?: TradingConnector;
  ctx: ConnectorContext;
  driver: PrivateStreamDriver;
  open: OpenSocket;
  /** Records fills seen on the stream or in a (re)connect's snapshot (once each). */
  record(inst: TradingInstrument, fills: Fill[]): Promise<number>;
  log: { warn(obj: object, msg: string): void };
  backoffMs?: (attempt: number) => number;
  /** The slow REST reconcile (default 60 s). */
  snapshotMs?: number;
  /** How long account signals are gathered before positions and balance are read again (default 150 ms). */
  refreshMs?: number;
  /** How long after a fill the stream's position and balance pushes are awaited before a REST read (default 1 s). */
  pushWaitMs?: number;
}

/** A push heard this long before a fill is taken as that fill's (a venue may push the position first). */
const PUSH_GRACE_MS = 300;
const PARTS: readonly AccountPart[] = ['positions', 'balance'];

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED']);
const RECENT_MAX = 500;
/** The weight a snapshot may take of the address's window (Binance's heaviest: every open order 40 + 40, positions 5, the account 5). */
const SNAPSHOT_ROOM = 90;
const defaultBackoff = (n: number) => Math.min(30_000, 500 * 2 ** Math.min(n, 6));
const isZeroSize = (size: string) => cmp(dec(size), dec('0')) === 0;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** A read this server held back (429: the key's or the address's budget) is tried again when the hold ends, not before. */
const retryMs = (err: unknown, otherwise: number) =>
  err instanceof TradeRefusedError && err.status === 429 && err.retryAfterSeconds !== undefined ? Math.max(otherwise, err.retryAfterSeconds * 1000) : otherwise;

export class AccountState {
  private readonly listeners = new Set<AccountListener>();
  private readonly orders = new Map<string, Order>();
  private readonly recent = new Map<string, Order>();
  private readonly created = new Map<string, string>();
  private positions: Position[] = [];
  private balance: Balance | null = null;
  private streamState: StreamState = 'connecting';
  private reason: string | undefined;
  private stream: PrivateStream | null = null;
  private generation = 0;
  private stopped = false;
  private attempt = 0;
  private snapshotted = false;
  private buffer: PrivateEvent[] | null = null;
  private snapshotting: Promise<void> | null = null;
  /** The slow timer's reconcile is waiting for room in the address's window or reading. */
  private reconciling = false;
  /** Parts a fill made stale, awaiting the stream's push. */
  private readonly awaiting = new Set<AccountPart>();
  /** Parts to read again over REST. */
  private readonly dirty = new Set<AccountPart>();
  private readonly pushedAt: Record<AccountPart, number> = { positions: 0, balance: 0 };
  /**
   * While positions or the balance are read over REST: what the stream pushed meanwhile. The push wins over the read's
   * answer (which may be from before it): a change after the push has a push of its own, while a flat position
   * pushed and then undone by an older read would be guarded as open until the next snapshot.
   */
  private pushedDuringRead: { positions: Map<string, Position>; balance: Balance | null } | null = null;
  /** The last full row of each symbol (flat ones included): what a push that lacks a field takes it from. */
  private readonly known = new Map<string, Position>();
  private refreshing: Promise<void> | null = null;
  /** The parts being read over REST now: not fresh until the answer is applied (the copy is from before the change). */
  private readonly reading = new Set<AccountPart>();
  private pushTimer: NodeJS.Timeout | null = null;
  private emitting = false;
  private readonly reads: AccountRest;
  private readonly timers = new Set<NodeJS.Timeout>();
  private refreshTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: AccountStateDeps) {
    this.reads = new AccountRest(deps);
  }

  /** REST reads of positions and balance since the state opened (the budget's tests read them). */
  get restReads(): Readonly<Record<AccountPart, number>> {
    return this.reads.counts;
  }

  get apiKeyId(): string {
    return this.deps.key.id;
  }

  get network(): Network {
    return this.deps.key.network;
  }

  get status(): { state: StreamState; reason: string | undefined } {
    return { state: this.streamState, reason: this.reason };
  }

  /** Connected, snapshotted, not between a signal and its re-read: open orders can be trusted. */
  get ordersFresh(): boolean {
    return this.stream !== null && this.snapshotted && this.buffer === null;
  }

  /**
   * `ordersFresh`, and no position change is waiting (for its push or its read): what a bracket's guard reads.
   * The balance may be being read again (Binance signals it after every fill without its value).
   */
  get positionsFresh(): boolean {
    return this.ordersFresh && !this.dirty.has('positions') && !this.awaiting.has('positions') && !this.reading.has('positions');
  }

  /** `ordersFresh`, and no position or balance change is waiting (for its push or its read). */
  get fresh(): boolean {
    return this.ordersFresh && this.dirty.size === 0 && this.awaiting.size === 0 && this.reading.size === 0;
  }

  /** The state as last read (null before the first snapshot). */
  view(): AccountView | null {
    if (!this.balance) return null;
    return { orders: [...this.orders.values()], positions: [...this.positions], balance: this.balance };
  }

  openOrders(inst?: TradingInstrument): Order[] {
    const all = [...this.orders.values()];
    return inst ? all.filter((o) => o.symbol === inst.symbol || o.symbol === inst.exchangeSymbol) : all;
  }

  positionsOf(inst?: TradingInstrument): Position[] {
    return inst ? this.positions.filter((p) => p.symbol === inst.symbol || p.symbol === inst.exchangeSymbol) : [...this.positions];
  }

  currentBalance(): Balance | null {
    return this.balance;
  }

  /** An order by its client id: open, or ended lately (seen ending on the stream). */
  byClientId(clientOrderId: string): Order | undefined {
    for (const o of this.orders.values()) if (o.clientOrderId === clientOrderId) return o;
    return this.recent.get(clientOrderId);
  }

  listen(l: AccountListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  start(): void {
    const slow = setInterval(() => void this.reconcile(), this.deps.snapshotMs ?? 60_000);
    slow.unref?.();
    this.timers.add(slow);
    void this.connect();
  }

  close(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.stream?.close();
    this.stream = null;
    this.listeners.clear();
  }

  /** Orders this server just placed, known before their stream events (never over a newer state of them). */
  noteOrders(orders: readonly Order[]): void {
    for (const o of orders) {
      const t = tagOrder(o);
      if (t.clientOrderId && this.recent.has(t.clientOrderId)) continue;
      const held = this.orders.get(t.id);
      if (held && Date.parse(held.updatedAt) > Date.parse(t.updatedAt)) continue;
      if (OPEN.has(t.status)) this.orders.set(t.id, t);
    }
  }

  private emit(f: (l: AccountListener) => void): void {
    for (const l of this.listeners) {
      try {
        f(l);
      } catch (err) {
        this.deps.log.warn({ err: message(err), apiKeyId: this.apiKeyId }, 'an account listener failed');
      }
    }
  }

  private setState(state: StreamState, reason?: string): void {
    this.streamState = state;
    this.reason = reason;
    this.emit((l) => l.status?.(state, reason));
  }

  private after(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    try {
      const stream = await this.deps.driver(this.deps.ctx, this.deps.open, {
        event: (e) => {
          if (gen === this.generation) this.onEvent(e);
        },
        closed: (reason) => {
          if (gen === this.generation) this.onClosed(reason);
        },
      });
      if (this.stopped || gen !== this.generation) {
        stream.close();
        return;
      }
      this.stream = stream;
      this.attempt = 0;
      this.setState('connected');
      await this.snapshot(true);
    } catch (err) {
      if (gen === this.generation) this.onClosed(message(err));
    }
  }

  /** A gap: not fresh until the reconnect's snapshot lands. */
  private onClosed(reason: string): void {
    this.stream = null;
    this.snapshotted = false;
    this.generation += 1;
    if (this.stopped) return;
    const wait = (this.deps.backoffMs ?? defaultBackoff)(this.attempt++);
    this.setState(this.attempt > 5 ? 'error' : 'reconnecting', `${reason}; retrying in ${Math.ceil(wait / 1000)} s`);
    this.after(wait, () => void this.connect());
  }

  private onEvent(e: PrivateEvent): void {
    if (this.buffer) this.buffer.push(e);
    else this.apply(e);
  }

  private apply(e: PrivateEvent): void {
    if (e.kind === 'order') {
      const order = this.withCreated(tagOrder(e.order));
      const before = this.orders.get(order.id);
      if (OPEN.has(order.status)) {
        this.orders.set(order.id, order);
      } else {
        this.orders.delete(order.id);
        this.remember(order);
      }
      if (cmp(dec(order.filledQty), dec(before?.filledQty ?? '0')) > 0) this.expectPush();
      this.emit((l) => l.order?.(order));
    } else if (e.kind === 'fill') {
      const inst = this.deps.ctx.instrument(e.fill.symbol);
      if (inst) void this.deps.record(inst, [e.fill]).catch((err: unknown) => this.deps.log.warn({ err: message(err) }, 'recording a stream fill failed'));
      this.expectPush();
      this.emit((l) => l.fill?.(e.fill));
    } else if (e.kind === 'position') {
      this.applyPosition(e.position, e.missing ?? []);
    } else if (e.kind === 'balance') {
      if (this.pushedDuringRead) this.pushedDuringRead.balance = e.balance;
      this.balance = e.balance;
      this.pushed('balance');
    } else {
      // The stream's word that these changed (what it does not carry): their read answers a fill's wait too.
      const parts = e.parts ?? PARTS;
      for (const part of parts) this.pushedAt[part] = Date.now();
      this.settle(parts);
      this.accountChanged(parts);
    }
  }

  /** A pushed position: flat ones leave, fields the push lacks come from the symbol's last full row. */
  private applyPosition(pushed: Position, missing: readonly (keyof Position)[]): void {
    const known = this.known.get(pushed.symbol);
    if (missing.length && !known && !isZeroSize(pushed.size)) {
      // The read answers the fill's wait too.
      this.pushedAt.positions = Date.now();
      this.settle(['positions']);
      this.accountChanged(['positions']);
      return;
    }
    const row: Position = missing.length && known ? { ...pushed, ...Object.fromEntries(missing.map((k) => [k, known[k]])) } : pushed;
    this.pushedDuringRead?.positions.set(row.symbol, row);
    this.placeRow(row);
    this.pushed('positions');
  }

  /** One symbol's row in the held set (a flat one leaves it). */
  private placeRow(row: Position): void {
    this.known.set(row.symbol, row);
    const rest = this.positions.filter((p) => p.symbol !== row.symbol);
    this.positions = isZeroSize(row.size) ? rest : [...rest, row];
  }

  private pushed(part: AccountPart): void {
    this.pushedAt[part] = Date.now();
    this.settle([part]);
    // The pushes of one frame (a position and the wallet) are one change for the listeners.
    if (this.emitting) return;
    this.emitting = true;
    queueMicrotask(() => {
      this.emitting = false;
      const view = this.stopped ? null : this.view();
      if (view) this.emit((l) => l.account?.(view));
    });
  }

  /** These parts no longer await a push. */
  private settle(parts: readonly AccountPart[]): void {
    for (const part of parts) this.awaiting.delete(part);
    if (this.awaiting.size === 0 && this.pushTimer) {
      clearTimeout(this.pushTimer);
      this.pushTimer = null;
    }
  }

  /** A fill: positions and balance are stale until the stream's pushes land (or, failing them, a REST read). */
  private expectPush(): void {
    const now = Date.now();
    for (const part of PARTS) if (now - this.pushedAt[part] > PUSH_GRACE_MS) this.awaiting.add(part);
    if (!this.awaiting.size || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      if (this.awaiting.size) this.accountChanged([...this.awaiting]);
      this.awaiting.clear();
    }, this.deps.pushWaitMs ?? 1000);
    this.pushTimer.unref?.();
  }

  /** Parts the stream does not carry changed: read them again once the burst of signals is over. */
  private accountChanged(parts: readonly AccountPart[]): void {
    for (const p of parts) this.dirty.add(p);
    if (this.refreshTimer || this.buffer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      void this.refresh();
    }, this.deps.refreshMs ?? 150);
    this.refreshTimer.unref?.();
  }

  private async refresh(): Promise<void> {
    if (this.refreshing || this.stopped) {
      if (this.refreshing) await this.refreshing.then(() => this.dirty.size && this.accountChanged([]));
      return;
    }
    const parts = new Set(this.dirty);
    this.dirty.clear();
    if (!parts.size) return;
    const gen = this.generation;
    const meanwhile = (this.pushedDuringRead = { positions: new Map<string, Position>(), balance: null });
    for (const p of parts) this.reading.add(p);
    const read = () => parts.forEach((p) => this.reading.delete(p));
    this.refreshing = (async () => {
      try {
        // A position change holds every guard of the key on the exchange until read; the balance holds none.
        const [positions, balance] = await Promise.all([parts.has('positions') ? this.reads.positions(this.reads.waited) : null, parts.has('balance') ? this.reads.balance(this.reads.idle) : null]);
        read(); // fresh again before the listeners hear of it (a guard woken by it reads the state, not the exchange)
        if (this.stopped || gen !== this.generation) return;
        // What was pushed while the answer travelled is newer than it, or as new (see `pushedDuringRead`).
        if (positions) {
          this.setPositions(positions);
          for (const row of meanwhile.positions.values()) this.placeRow(row);
        }
        if (balance) this.balance = meanwhile.balance ?? balance;
        const view = this.view();
        if (view) this.emit((l) => l.account?.(view));
      } catch (err) {
        for (const p of parts) this.dirty.add(p);
        this.deps.log.warn({ err: message(err), apiKeyId: this.apiKeyId }, 'account refresh failed');
        this.after(retryMs(err, 2000), () => this.accountChanged([]));
      }
    })().finally(() => {
      read();
      if (this.pushedDuringRead === meanwhile) this.pushedDuringRead = null;
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** A full read of the positions: the held set and every symbol's last full row. */
  private setPositions(positions: Position[]): void {
    this.positions = positions;
    for (const p of positions) this.known.set(p.symbol, p);
  }

  private remember(o: Order): void {
    if (!o.clientOrderId) return;
    this.recent.delete(o.clientOrderId);
    this.recent.set(o.clientOrderId, o);
    if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** Stream updates carry the update time; keep the creation time the snapshot knew. */
  private withCreated(o: Order): Order {
    const known = this.created.get(o.id);
    if (known) return { ...o, createdAt: known };
    this.created.set(o.id, o.createdAt);
    return o;
  }

  /**
   * The slow timer's snapshot. Where the exchange weighs reads per address, it first waits for room in the
   * window for a whole snapshot: the state holds the stream's events while it reads, and a snapshot whose reads
   * waited in the pacer would leave it stale that long (every guard on the key then reads the exchange itself).
   */
  private async reconcile(): Promise<void> {
    if (!this.stream || this.snapshotting || this.reconciling) return;
    this.reconciling = true;
    try {
      await this.deps.ctx.addressPacer?.room(SNAPSHOT_ROOM, 'background');
      if (this.stream && !this.snapshotting && !this.stopped) await this.snapshot(false);
    } finally {
      this.reconciling = false;
    }
  }

  /** REST: open orders, positions and balance; events heard meanwhile are applied after it, in order. */
  snapshot(withFills: boolean): Promise<void> {
    return (this.snapshotting ??= this.readSnapshot(withFills).finally(() => void (this.snapshotting = null)));
  }

  private async readSnapshot(withFills: boolean): Promise<void> {
    const gen = this.generation;
    this.buffer = [];
    try {
      // A (re)connect's snapshot is waited on (the guards read the exchange until it lands); the slow one is not.
      const [orders, positions, balance] = await this.reads.snapshot(withFills, { orders: this.orders.values(), positions: this.positions });
      if (this.stopped || gen !== this.generation) return;
      this.orders.clear();
      for (const o of orders) {
        this.created.set(o.id, o.createdAt);
        this.orders.set(o.id, tagOrder(o));
      }
      this.setPositions(positions);
      this.balance = balance;
      this.dirty.clear();
      this.awaiting.clear();
      this.snapshotted = true;
      this.flush();
      const view = this.view();
      if (view) this.emit((l) => l.snapshot?.(view));
      if (withFills) await this.reads.recordFills(orders, positions);
    } catch (err) {
      this.flush();
      this.deps.log.warn({ err: message(err), apiKeyId: this.apiKeyId }, 'account snapshot failed');
      if (!this.stopped) this.emit((l) => l.error?.(`Could not read the account: ${message(err)}`));
      if (!this.stopped && gen === this.generation) this.after(retryMs(err, 5000), () => void this.snapshot(true));
    }
  }

  private flush(): void {
    const held = this.buffer ?? [];
    this.buffer = null;
    for (const e of held) this.apply(e);
  }
}
