import { and, eq } from 'drizzle-orm';
import type { ExchangeId } from '../../../src/api/contracts/common';
import { add, cmp, dec, div, isZero, mul, roundToStep, str, sub, type Decimal } from '../../../src/api/contracts/decimal';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { Order, Position } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import { apiKeys } from '../../db/schema-api-keys';
import { TradeRefusedError, type NewOrder, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import type { AccountLease, AccountStates } from '../trading/account-states';
import { tradingInstrument, type TradingConnectors } from '../trading/connect';
import { legId, tagOrder } from '../trading/ids';
import type { EventBus } from '../events/bus';
import { dropSealedIfIdle, logActivity, openSealedCredentials } from './managed-brackets';
import { GuardPrice } from './guard-price';
import type { MarketFeed } from './market-feed';
import { BRACKET_JOB, type BracketJobPayload } from './payloads';
import { cancelAll, closeFilled, legOrder, MAX_FAILURES, OPEN, reason, refused, WaitForPrice, type Round } from './bracket-round';
import { sleep, type JobContext, type JobHandler, type JobRunnerLog } from './runner';

/**
 * The bracket guard (issues 13, 21; DESIGN §3.2, §3.6): one job per bracket, run by whichever
 * instance holds its lease, with the key's sealed credentials and no browser.
 *
 * - **A filled entry is never without its stop.** A resting entry's stop and targets are placed the
 *   round its first fill is seen. If the stop cannot be placed (the market is already through it),
 *   what the entry filled is closed at market and the rest cancelled: the stop would have fired.
 * - **A closed position leaves no orders.** When the bracket's position is gone — stopped out, the
 *   last target filled, closed from the terminal, liquidated, or closed on the exchange's own site —
 *   the bracket's remaining orders are cancelled. So is everything when the entry goes unfilled.
 * - **Managed** (FF_ENABLE_SEMI_AUTO): the stop moves to break-even after the first target and trails.
 * - **Idempotent by state, not by memory**: every round reads the bracket's orders and position and acts
 *   on the difference; every order it places has a deterministic client id it looks for first. A holder
 *   killed between an action and saving it leaves nothing to do twice.
 * - **Pushed, not polled** (issue 26 §2, with `accounts`): the round reads the key's account state (kept
 *   from its private stream, shared by every bracket of the key) and runs when that state changes — an
 *   order, a fill, positions or balance pushed (or re-read), a snapshot —, else every `idleMs` from memory. Ending the bracket
 *   (position gone, entry gone) is confirmed with one REST read first. While the state is not fresh (the
 *   stream reconnecting) a round reads the exchange, at most every `degradedMs`.
 * Every action is in the activity log, and the notable ones notify the user.
 */

export interface BracketJobOptions {
  db: Db;
  connectors: TradingConnectors;
  instruments: (exchange: ExchangeId, testnet: boolean) => Promise<Instrument[]>;
  secret: string | undefined;
  /** The shared mainnet ticker streams (prices for break-even and trailing without a request per job). */
  feed?: MarketFeed;
  /** Without `accounts`: how often the bracket is read from the exchange (default 400 ms). */
  pollMs?: number;
  /** The keys' account states: rounds read them and run on their changes instead of polling. */
  accounts?: AccountStates;
  /** With `accounts`: a round from memory when nothing changed for this long (default 30 s). */
  idleMs?: number;
  /** With `accounts`, while the state is not fresh: the REST round's cadence (default 5 s). */
  degradedMs?: number;
  log?: JobRunnerLog;
  /** The notable actions' notifications are published (`notification.created`) with their insert. */
  events?: EventBus;
  /** Tests: called before each exchange action (a crash can be staged there). */
  beforeAction?: (action: string, ctx: JobContext<BracketJobPayload>) => Promise<void>;
}

/** The `bracket` kind's handler: its payload is checked against `bracketJobPayloadSchema` when claimed (payloads.ts). */
export function bracketJobHandler(opts: BracketJobOptions): JobHandler<BracketJobPayload> {
  return { ...BRACKET_JOB, retryMs: 1000, run: (ctx) => new BracketGuard(opts, ctx).run() };
}

class BracketGuard {
  private readonly p: BracketJobPayload;
  private readonly userId: string;
  private conn!: TradingConnector;
  private inst!: TradingInstrument;
  private price: GuardPrice | null = null;
  private lastTrailAt = 0;
  private lease: AccountLease | null = null;
  private wake: (() => void) | null = null;
  /** The state changed since the last round began (a change heard during a round is not lost). */
  private changed = false;
  private unlisten: () => void = () => undefined;

  constructor(
    private readonly opts: BracketJobOptions,
    private readonly ctx: JobContext<BracketJobPayload>,
  ) {
    this.p = { ...ctx.payload };
    this.userId = ctx.job.userId!;
  }

  private get long() {
    return this.p.side === 'BUY';
  }

  private log(e: Parameters<typeof logActivity>[3]) {
    return logActivity(this.opts.db, this.userId, this.ctx.job.key, e, this.opts.events);
  }

  private async end(how: 'done' | 'failed', message?: string): Promise<void> {
    const ok = how === 'done' ? await this.ctx.complete() : await this.ctx.fail(message ?? 'failed');
    if (ok) await dropSealedIfIdle(this.opts.db, this.p.apiKeyId);
  }

  /** False when this instance no longer holds the job: the run must stop acting. */
  private save() {
    return this.ctx.save(this.p);
  }

  private async act(action: string) {
    await this.opts.beforeAction?.(action, this.ctx);
    if (this.ctx.signal.aborted) throw new Error('aborted');
  }

  async run(): Promise<void> {
    if (!(await this.setUp())) return;
    try {
      if (!this.p.armed && !(await this.reconcileUnarmed())) return;
      await this.loop();
    } finally {
      this.price?.close();
      this.unlisten();
      this.lease?.release();
    }
  }

  /** Credentials, key, instrument, connector and the price feed; false (job ended) when one is gone. */
  private async setUp(): Promise<boolean> {
    const { db, secret } = this.opts;
    const p = this.p;
    if (!secret) {
      await this.end('failed', 'This server has no SERVER_SECRET: it cannot open the sealed credentials');
      return false;
    }
    const creds = await openSealedCredentials(db, secret, p.apiKeyId, this.userId).catch(() => null);
    const [key] = await db.select().from(apiKeys).where(and(eq(apiKeys.id, p.apiKeyId), eq(apiKeys.userId, this.userId)));
    if (!creds || !key) {
      await this.log({ action: 'Stopped guarding the bracket', orderId: null, result: 'failed', message: 'The key or its sealed credentials are gone: the orders stay as they are', dedupe: 'no-credentials', notify: true });
      await this.end('failed', 'The key or its sealed credentials are gone');
      return false;
    }
    const list = (await this.opts.instruments(p.exchange, p.network === 'TESTNET')).map(tradingInstrument);
    const inst = list.find((i) => i.symbol === p.symbol);
    if (!inst) {
      await this.end('failed', `${p.symbol} is no longer listed on ${p.exchange}`);
      return false;
    }
    this.inst = inst;
    // A guard's reads wait their turn on the address's weight (`readsFor: 'job'`), never refused for it.
    this.conn = this.opts.connectors.connector(key.exchange, { ...this.opts.connectors.context(key, creds, list), readsFor: 'job' });
    if (this.opts.accounts) {
      this.lease = await this.opts.accounts.acquire(key, creds);
      const poke = () => {
        this.changed = true;
        this.wake?.();
      };
      this.unlisten = this.lease.state.listen({ status: poke, snapshot: poke, order: poke, fill: poke, account: poke });
    }
    this.price = new GuardPrice(this.opts.feed, p.exchange, inst.symbol, p.network === 'MAINNET', () => this.conn.lastPrice(inst));
    if (p.options?.trail || p.options?.breakEven) this.price.watch(() => p.options?.trail && this.p.entrySeen && this.wake?.());
    return true;
  }

  /**
   * The request that placed the bracket never armed its job (its server died mid-way): what it
   * placed is read back from the exchange by the legs' client ids. False when nothing was placed.
   */
  private async reconcileUnarmed(): Promise<boolean> {
    const p = this.p;
    const entry = await this.conn.orderByClientId(this.inst, legId(p.bracketId, 'E'), p.entryType !== undefined && p.entryType !== 'MARKET' && p.entryType !== 'LIMIT');
    if (!entry) {
      await this.log({ action: 'Finished guarding the bracket', orderId: null, result: 'ok', message: `${p.symbol}: its entry never reached the exchange`, dedupe: 'finished' });
      await this.end('done');
      return false;
    }
    const stop = p.legs.find((l) => l.role === 'stop-loss');
    const placedStop = stop ? await this.conn.orderByClientId(this.inst, stop.clientOrderId, true) : null;
    p.armed = true;
    p.entrySeen = !isZero(dec(entry.filledQty));
    p.protectionPlaced = placedStop !== null;
    return this.save();
  }

  private async loop(): Promise<void> {
    const pollMs = this.opts.pollMs ?? 400;
    let failures = 0;
    while (!this.ctx.signal.aborted) {
      let waiting = false;
      /** The key's calls are held (its rate limit nearly used up): the next round waits that out, spread over a second. */
      let held = 0;
      this.changed = false;
      try {
        if ((await this.round()) === 'done') return;
        failures = 0;
      } catch (err) {
        if (this.ctx.signal.aborted) return;
        waiting = err instanceof WaitForPrice;
        // A hold is the key's budget, not the guard failing: it never counts towards giving up.
        if (err instanceof TradeRefusedError && err.status === 429 && err.retryAfterSeconds) held = err.retryAfterSeconds * 1000 + Math.random() * 1000;
        if (!waiting && held === 0) {
          failures += 1;
          this.opts.log?.warn({ err, job: this.ctx.job.key }, 'Bracket guard round failed');
          if (failures >= MAX_FAILURES) {
            await this.log({ action: 'Stopped guarding the bracket', orderId: null, result: 'failed', message: `${this.p.symbol}: ${reason(err)}`, dedupe: 'gave-up', notify: true });
            return this.end('failed', reason(err));
          }
        }
      }
      const backoff = failures > 0 ? Math.min(8, 2 ** failures) : 1;
      // A failed round (a cancel refused, the exchange away) is tried again after its backoff, whether or not the
      // account changes meanwhile; waiting for the break-even price: looked at again every 2 s (the feed's; the
      // exchange's when it is not live); else the next change of the key's account state.
      if (held > 0) await sleep(held, this.ctx.signal);
      else if (failures > 0) await sleep(Math.max(pollMs, 1000) * backoff, this.ctx.signal);
      else if (this.lease && !waiting) await this.nextChange(1);
      else await sleep(Math.max(pollMs, this.lease ? 2000 : 0), this.ctx.signal);
    }
  }

  /**
   * Until the key's account state has changed and is fresh again (at least `pollMs` after the last round: a
   * burst of events is one round), or `idleMs` (fresh) / `degradedMs` (not fresh: the next round reads the
   * exchange) without that. A change that leaves the state stale (a fill, until positions are read again) waits
   * for the read, so N guards do not each ask the exchange.
   */
  private async nextChange(backoff: number): Promise<void> {
    const started = Date.now();
    const state = this.lease!.state;
    const longest = (state.positionsFresh ? (this.opts.idleMs ?? 30_000) : (this.opts.degradedMs ?? 5000)) * backoff;
    await new Promise<void>((resolve) => {
      let soon: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(soon);
        this.ctx.signal.removeEventListener('abort', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, longest);
      this.ctx.signal.addEventListener('abort', done);
      this.wake = () => {
        if (!state.positionsFresh || soon) return;
        soon = setTimeout(done, Math.max(0, (this.opts.pollMs ?? 400) * backoff - (Date.now() - started)));
      };
      if (this.changed) this.wake();
    });
  }

  /**
   * The bracket's orders and position: from the key's account state when they are fresh (its balance may be
   * being read again: the guard does not use it), else from the exchange.
   */
  private async read(): Promise<Round> {
    const state = this.lease?.state;
    if (!state?.positionsFresh) return this.readRest();
    const open = state.openOrders(this.inst).filter((o) => o.bracketId === this.p.bracketId);
    const position = state.positionsOf(this.inst).find((x) => !isZero(dec(x.size)) && x.side === this.p.side);
    return { open, position, entry: open.find((o) => o.role === 'entry'), memory: true };
  }

  /** The bracket's orders and position as the exchange has them now. */
  private async readRest(): Promise<Round> {
    const open = (await this.conn.openOrders(this.inst)).map(tagOrder).filter((o) => o.bracketId === this.p.bracketId);
    const positions = await this.conn.positions(this.inst);
    const position = positions.find((x) => x.symbol === this.inst.symbol && !isZero(dec(x.size)) && x.side === this.p.side);
    return { open, position, entry: open.find((o) => o.role === 'entry'), memory: false };
  }

  /** What the entry has filled: from its open order, or (no longer open) looked up by its client id. */
  private async entryFilled(r: Round): Promise<Decimal> {
    if (r.entry) return dec(r.entry.filledQty);
    const seen = this.lease?.state.byClientId(legId(this.p.bracketId, 'E'));
    if (seen && r.memory) return dec(seen.filledQty);
    const past = await this.conn.orderByClientId(this.inst, legId(this.p.bracketId, 'E'), this.entryConditional);
    return past ? dec(past.filledQty) : dec(0);
  }

  /** The round would end the bracket (its position or its entry gone). */
  private async ending(r: Round): Promise<boolean> {
    const seen = this.p.entrySeen || !isZero(await this.entryFilled(r));
    return seen ? this.p.protectionPlaced && !r.position : !r.entry;
  }

  private async round(): Promise<'done' | 'again'> {
    const p = this.p;
    let r = await this.read();
    // Nothing is cancelled on the server's copy alone: an ending is confirmed by the exchange.
    if (r.memory && (await this.ending(r))) r = await this.readRest();
    if (!p.entrySeen && !isZero(await this.entryFilled(r))) {
      p.entrySeen = true;
      if (!(await this.save())) return 'done';
    }
    if (p.entrySeen && !p.protectionPlaced) return (await this.protect(r)) ? 'again' : 'done';
    if (p.entrySeen && !r.position) return this.finish(r.open, 'the position was closed');
    if (!p.entrySeen && !r.entry) return this.finish(r.open, 'the entry was cancelled before it filled');
    if (r.position && p.options) await this.manage(r, r.position);
    return 'again';
  }

  /** Cancels what is left of the bracket and ends the job. */
  private async finish(open: Order[], why: string): Promise<'done'> {
    const p = this.p;
    if (open.length > 0) {
      await this.act('cancel-rest');
      // Never "finished" with an order of a closed bracket still live: a cancel that fails throws (`cancelAll`).
      await cancelAll(this.conn, this.inst, open, 'remaining orders');
      await this.log({
        action: 'Cancelled the remaining orders',
        orderId: open.map((o) => o.id).join(',').slice(0, 500),
        result: 'ok',
        message: `${p.symbol}: ${why}; ${open.length} order${open.length === 1 ? '' : 's'} of the bracket cancelled (${open.map((o) => o.role ?? 'order').join(', ')})`,
        dedupe: 'cancel-rest',
        notify: true,
      });
    }
    await this.log({ action: 'Finished guarding the bracket', orderId: null, result: 'ok', message: `${p.symbol}: ${why}`, dedupe: 'finished' });
    await this.end('done');
    return 'done';
  }

  /** An order of the bracket unless it is on the exchange already (open, or ever, by its client id). */
  private async placeIfMissing(open: Order[], order: NewOrder): Promise<Order> {
    const mine = open.find((o) => o.clientOrderId === order.clientOrderId);
    if (mine) return mine;
    const ever = await this.conn.orderByClientId(this.inst, order.clientOrderId, order.type !== 'MARKET' && order.type !== 'LIMIT');
    if (ever) return tagOrder(ever);
    await this.act(`place-${order.clientOrderId}`);
    return tagOrder(await this.conn.place(order));
  }

  /**
   * The entry filled: its stop, then its targets. A refused stop means the market is already past
   * it: what the entry filled is closed at market and the rest of the bracket cancelled. A refused
   * target is said (the stop protects the position). False when the job ended.
   */
  private async protect(r: Round): Promise<boolean> {
    const p = this.p;
    const stop = p.legs.find((l) => l.role === 'stop-loss');
    if (stop) {
      try {
        const placed = await this.placeIfMissing(r.open, legOrder(this.inst, this.long, stop));
        await this.log({ action: 'Placed the stop-loss', orderId: placed.id, result: 'ok', message: `${p.symbol}: the entry filled; stop-loss at ${stop.triggerPrice}`, dedupe: 'stop-placed' });
      } catch (err) {
        if (!refused(err)) throw err;
        await this.flattenUnprotected(r, err);
        return false;
      }
    }
    const missed: string[] = [];
    for (const [i, tp] of p.legs.filter((l) => l.role === 'take-profit').entries()) {
      try {
        await this.placeIfMissing(r.open, legOrder(this.inst, this.long, tp));
      } catch (err) {
        if (!refused(err)) throw err;
        missed.push(`take-profit ${i + 1} at ${tp.price} (${err.exchangeMessage})`);
      }
    }
    p.protectionPlaced = true;
    if (!(await this.save())) return false;
    const targets = p.legs.filter((l) => l.role === 'take-profit').length - missed.length;
    await this.log({
      action: missed.length ? 'Placed the stop-loss; a take-profit was refused' : 'Placed the stop-loss and take-profits',
      orderId: null,
      result: missed.length ? 'failed' : 'ok',
      message: `${p.symbol}: the entry filled; stop-loss ${stop?.triggerPrice ?? '—'} and ${targets} take-profit${targets === 1 ? '' : 's'} placed${missed.length ? `; refused: ${missed.join('; ')} — the stop protects the position` : ''}`,
      dedupe: 'protected',
      notify: true,
    });
    return true;
  }

  /**
   * The stop was refused after the entry filled: close what it filled, cancel the rest (stop-or-flatten).
   * An entry whose cancel fails may go on filling: what it filled so far is closed now, and the round fails (tried
   * again) until the entry is no longer open — each later closing takes only what filled since (`closeFilled`).
   */
  private async flattenUnprotected(r: Round, cause: TradeRefusedError): Promise<void> {
    const p = this.p;
    /** The entry as the exchange answered now (its cancel, or a look-up after a failed cancel). */
    let entry: Order | null = null;
    let cancelFailed: unknown = null;
    if (r.entry && OPEN.has(r.entry.status)) {
      await this.act('cancel-entry');
      try {
        entry = tagOrder(await this.conn.cancel(this.inst, r.entry.id));
      } catch (err) {
        // It may have filled or been cancelled meanwhile: the exchange says which.
        entry = await this.conn.orderByClientId(this.inst, legId(p.bracketId, 'E'), this.entryConditional).catch(() => null);
        if (!entry || OPEN.has(entry.status)) cancelFailed = err;
      }
    }
    const filled = entry ? dec(entry.filledQty) : await this.entryFilled({ ...r, entry: undefined });
    const { conn, inst, long } = this;
    const position = async () => (await this.readRest()).position;
    const closing = await closeFilled({ conn, inst, long, bracketId: p.bracketId, filled, seen: r.position, position, act: (step) => this.act(step) });
    if (closing) {
      const why = `${p.symbol}: the stop-loss could not be placed after the entry filled (${cause.exchangeMessage})`;
      const gone = closing.gone !== undefined;
      await this.log({
        action: gone ? 'Nothing left to close' : 'Closed the entry at market',
        orderId: null,
        result: 'ok',
        message: gone
          ? `${why}; the position it opened was already closed (${closing.gone})`
          : `${why}: the ${closing.qty} it ${closing.count ? 'filled since it was last closed' : 'filled'} was closed at market`,
        dedupe: `${gone ? 'nothing-to-close' : 'flattened'}:${closing.id}`,
        notify: true,
      });
    }
    if (cancelFailed) {
      throw new Error(`${p.symbol}: the entry could not be cancelled (${reason(cancelFailed)}); what it filled is closed, and it is cancelled again`);
    }
    const rest = (await this.read()).open;
    await this.finish(rest, 'the stop could not be placed, so the entry was closed');
  }

  private get entryConditional(): boolean {
    return this.p.entryType === 'STOP_MARKET' || this.p.entryType === 'STOP_LIMIT';
  }

  // ---------------------------------------------------------------- managed: break-even, trailing

  /** Leaves exactly one stop of the bracket at `price` (amending, or cancelling extra ones). */
  private async stopAt(stops: Order[], price: string, qty: string): Promise<Order> {
    const keep = stops.find((o) => o.triggerPrice !== null && cmp(dec(o.triggerPrice), dec(price)) === 0);
    let result: Order;
    if (keep) {
      result = keep;
    } else if (stops[0]) {
      await this.act('amend');
      result = tagOrder(await this.conn.amend(this.inst, stops[0].id, { triggerPrice: price }));
    } else {
      await this.act('place-stop');
      result = tagOrder(
        await this.conn.place({ ...legOrder(this.inst, this.long, { role: 'stop-loss', type: 'STOP_MARKET', qty, price: null, triggerPrice: price, clientOrderId: `${legId(this.p.bracketId, 'S')}R${Date.now() % 100_000}` }) }),
      );
    }
    // Extra stops (a crash in the middle of a place-then-cancel amend) go; the kept one stays.
    const open = (await this.conn.openOrders(this.inst)).map(tagOrder);
    // One that will not go throws: the round is tried again (the kept stop is found at its price, the extra cancelled).
    await cancelAll(
      this.conn,
      this.inst,
      open.filter((o) => o.bracketId === this.p.bracketId && o.role === 'stop-loss' && o.id !== result.id && o.clientOrderId !== result.clientOrderId),
      'extra stops',
    );
    return result;
  }

  private async manage(r: Round, pos: Position): Promise<void> {
    const p = this.p;
    const stops = r.open.filter((o) => o.role === 'stop-loss');
    if (p.options?.breakEven && !p.beDone && !r.open.some((o) => o.clientOrderId?.startsWith(legId(p.bracketId, 'T1')))) await this.breakEven(stops, pos);
    if (p.options?.trail && stops[0]?.triggerPrice && Date.now() - this.lastTrailAt >= 1000) await this.trail(stops, pos);
  }

  /** Break-even once the first take-profit has filled. */
  private async breakEven(stops: Order[], pos: Position): Promise<void> {
    const p = this.p;
    const tp1 = this.lease?.state.byClientId(legId(p.bracketId, 'T1')) ?? (await this.conn.orderByClientId(this.inst, legId(p.bracketId, 'T1'), true));
    if (!tp1 || !(tp1.status === 'FILLED' || (tp1.status !== 'NEW' && !isZero(dec(tp1.filledQty))))) return;
    const be = str(roundToStep(dec(pos.breakEvenPrice), dec(this.inst.tickSize), this.long ? 'up' : 'down'));
    // A stop beyond the price now would fire at once (the exchange refuses it): wait for the price (the
    // feed's while it is live; the exchange's confirms it allows the stop).
    const { ok, now } = await this.price!.allowsStop(dec(be), this.long);
    if (!ok) {
      await this.log({
        action: 'Waiting to move the stop to break-even',
        orderId: null,
        result: 'ok',
        message: `${p.symbol}: take-profit 1 filled, but break-even (${be}) is ${this.long ? 'above' : 'below'} the price now (${str(now)}); the stop moves there once the price allows`,
        dedupe: 'be-wait',
      });
      throw new WaitForPrice();
    }
    const moved = await this.stopAt(stops, be, pos.size);
    p.beDone = true;
    if (!(await this.save())) return;
    await this.log({ action: 'Moved the stop to break-even', orderId: moved.id, result: 'ok', message: `${p.symbol}: take-profit 1 filled; stop moved to ${be} (entry ${pos.entryPrice} with fees)`, dedupe: 'break-even', notify: true });
  }

  /** Trailing once in profit: never loosens the stop. */
  private async trail(stops: Order[], pos: Position): Promise<void> {
    const p = this.p;
    const trail = p.options?.trail;
    if (!trail || !stops[0]?.triggerPrice) return;
    const last = await this.price!.last();
    const inProfit = this.long ? cmp(last, dec(pos.entryPrice)) > 0 : cmp(last, dec(pos.entryPrice)) < 0;
    if (!inProfit) return;
    const dist = trail.mode === 'percent' ? div(mul(last, dec(trail.value)), dec(100)) : dec(trail.value);
    const want = roundToStep(this.long ? sub(last, dist) : add(last, dist), dec(this.inst.tickSize), this.long ? 'down' : 'up');
    const current = dec(stops[0].triggerPrice);
    if (!(this.long ? cmp(want, current) > 0 : cmp(want, current) < 0)) return;
    this.lastTrailAt = Date.now();
    const price = str(want);
    const moved = await this.stopAt(stops, price, pos.size);
    p.trailStop = price;
    if (!(await this.save())) return;
    await this.log({ action: 'Trailed the stop', orderId: moved.id, result: 'ok', message: `${p.symbol}: last ${str(last)}; stop moved to ${price}`, dedupe: `trail:${price}` });
  }
}
