import type { ExchangeId } from '../../../src/api/contracts/common';
import { dec, str } from '../../../src/api/contracts/decimal';
import type { Balance, Order } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema-api-keys';
import type { TradingInstrument } from '../../exchanges/trading';
import type { ExchangeCredentials } from '../../exchanges/transport';
import type { ExchangeInfoService } from '../exchange-info';
import { AccountState } from './account-state';
import { tradingInstrument, type TradingConnectors } from './connect';
import { recordSeenFills, xbtUsdOf } from './record';

/**
 * The instance's account states (`account-state.ts`), one per key, shared by every user of the key here:
 * the browser's account streams (`stream-hub.ts`), the bracket guards (`jobs/bracket-guard.ts`) and the
 * pre-send checks. Reference-counted: a state is open while a lease on it is held — a tab's stream, a live
 * guard, an unlock of the key (`hold`: from the unlock to its end) — or while the key is in use for trading
 * (`use`: each trading call restarts `idleMs`, as an unlock's idle time does). The last lease gone, the
 * private stream closes and its credentials go; a deleted key's closes at once (`closeKey`).
 */

/** The public last price, from the server's ticker streams (`jobs/market-feed.ts`), when fresh. */
export interface PriceSource {
  watch(exchange: ExchangeId): () => void;
  /** The last price of `symbol` (the product's) heard within `maxAgeMs`, else null. */
  lastPrice(exchange: ExchangeId, symbol: string, maxAgeMs: number): number | null;
}

/** What the pre-send checks read, each null when the server's copy is not fresh (then the exchange is asked). */
export interface AccountReads {
  lastPrice(inst: TradingInstrument): string | null;
  openOrders(inst: TradingInstrument): readonly Order[] | null;
  balance(): Balance | null;
  /** Orders just placed: known before their stream events. */
  placed(orders: readonly Order[]): void;
}

export interface AccountLease {
  state: AccountState;
  release(): void;
}

export interface AccountStatesDeps {
  db: Db;
  connectors: TradingConnectors;
  exchangeInfo: ExchangeInfoService;
  log: { warn(obj: object, msg: string): void };
  backoffMs?: (n: number) => number;
  snapshotMs?: number;
  refreshMs?: number;
  /** How long a key stays open after its last trading call (default 10 min). */
  idleMs?: number;
  /** How old a ticker price may be for the checks (default 5 s). */
  priceMaxAgeMs?: number;
}

interface Slot {
  state: AccountState;
  refs: number;
  idle: NodeJS.Timeout | null;
  unwatch: () => void;
}

export class AccountStates {
  private readonly slots = new Map<string, Slot>();
  private readonly opening = new Map<string, Promise<Slot>>();
  private prices: PriceSource | null = null;

  constructor(private readonly deps: AccountStatesDeps) {}

  /** The jobs' market feed, once there is one (JOBS_ENABLED). */
  usePrices(source: PriceSource | null): void {
    this.prices = source;
  }

  /** A lease on the key's state, opening it (with `creds`) when it is the first. */
  async acquire(key: ApiKeyRow, creds: ExchangeCredentials): Promise<AccountLease> {
    const slot = await this.slot(key, creds);
    slot.refs += 1;
    let released = false;
    return {
      state: slot.state,
      release: () => {
        if (released) return;
        released = true;
        this.unref(key.id, slot);
      },
    };
  }

  /**
   * The key was unlocked here: its state opens now (in the background), so the first order's checks read it
   * warm. The answer releases it (the unlock ended).
   */
  hold(key: ApiKeyRow, creds: ExchangeCredentials): () => void {
    let released = false;
    let lease: AccountLease | null = null;
    void this.acquire(key, creds).then(
      (l) => {
        if (released) l.release();
        else lease = l;
      },
      (err: unknown) => this.deps.log.warn({ err: String(err), apiKeyId: key.id }, 'could not open the account state'),
    );
    return () => {
      released = true;
      lease?.release();
    };
  }

  /** Custody withdrawn: the hold of the key's last trading call ends now (unlocks and guards release their own). */
  endIdle(apiKeyId: string): void {
    const slot = this.slots.get(apiKeyId);
    if (!slot?.idle) return;
    clearTimeout(slot.idle);
    slot.idle = null;
    this.unref(apiKeyId, slot);
  }

  /**
   * A trading call on the key: keeps its state open for `idleMs` more (opening it in the background the
   * first time) and answers what the checks may read from it now.
   */
  use(key: ApiKeyRow, creds: ExchangeCredentials): AccountReads {
    const held = this.slots.get(key.id);
    if (held) this.touch(key.id, held);
    else void this.slot(key, creds).then((s) => this.touch(key.id, s), (err: unknown) => this.deps.log.warn({ err: String(err), apiKeyId: key.id }, 'could not open the account state'));
    return this.reads(key.id, key.exchange, key.network === 'MAINNET');
  }

  get(apiKeyId: string): AccountState | undefined {
    return this.slots.get(apiKeyId)?.state;
  }

  /** The key is gone (deleted, custody withdrawn): its state closes whoever holds it. */
  closeKey(apiKeyId: string): void {
    const slot = this.slots.get(apiKeyId);
    if (!slot) return;
    this.drop(apiKeyId, slot);
  }

  keys(): string[] {
    return [...this.slots.keys()];
  }

  close(): void {
    for (const [id, slot] of this.slots) this.drop(id, slot);
  }

  private reads(apiKeyId: string, exchange: ExchangeId, mainnet: boolean): AccountReads {
    const state = () => this.slots.get(apiKeyId)?.state;
    return {
      lastPrice: (inst) => {
        const p = mainnet ? this.prices?.lastPrice(exchange, inst.symbol, this.deps.priceMaxAgeMs ?? 5000) : null;
        return p ? str(dec(p)) : null;
      },
      openOrders: (inst) => {
        const s = state();
        return s?.ordersFresh ? s.openOrders(inst) : null;
      },
      // The balance bounds the loss at the stop (a unit check, not margin): the last read, even while a change
      // signalled a moment ago is being read again, serves it.
      balance: () => {
        const s = state();
        return s?.ordersFresh ? s.currentBalance() : null;
      },
      placed: (orders) => state()?.noteOrders(orders),
    };
  }

  private touch(apiKeyId: string, slot: Slot): void {
    if (this.slots.get(apiKeyId) !== slot) return;
    if (!slot.idle) slot.refs += 1;
    else clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      slot.idle = null;
      this.unref(apiKeyId, slot);
    }, this.deps.idleMs ?? 10 * 60_000);
    slot.idle.unref?.();
  }

  private unref(apiKeyId: string, slot: Slot): void {
    slot.refs -= 1;
    if (slot.refs <= 0 && this.slots.get(apiKeyId) === slot) this.drop(apiKeyId, slot);
  }

  private drop(apiKeyId: string, slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.unwatch();
    slot.state.close();
    this.slots.delete(apiKeyId);
  }

  private async slot(key: ApiKeyRow, creds: ExchangeCredentials): Promise<Slot> {
    const held = this.slots.get(key.id);
    if (held) return held;
    let p = this.opening.get(key.id);
    if (!p) {
      p = this.open(key, creds).finally(() => this.opening.delete(key.id));
      this.opening.set(key.id, p);
    }
    return p;
  }

  private async open(key: ApiKeyRow, creds: ExchangeCredentials): Promise<Slot> {
    const { connectors, db } = this.deps;
    const instruments = (await this.deps.exchangeInfo.instruments(key.exchange, key.network === 'TESTNET')).map(tradingInstrument);
    // The reads the key's guards wait on (a (re)connect's snapshot, a position change) are a job's on the address's
    // weight; the slow reconcile and the balance are background: a trader's reads keep a reserve.
    const ctx = { ...connectors.context(key, creds, instruments), readsFor: 'job' as const };
    const connector = connectors.connector(key.exchange, ctx);
    const background = connectors.connector(key.exchange, { ...ctx, readsFor: 'background' });
    const xbtUsd = xbtUsdOf(connector, new Map(instruments.map((i) => [i.symbol.toUpperCase(), i])));
    const state = new AccountState({
      key,
      ctx,
      connector,
      background,
      driver: connectors.driver(key.exchange),
      open: connectors.opener(key.exchange, key.network),
      record: (inst, fills) => recordSeenFills(db, key, creds.apiKey, inst, fills, xbtUsd),
      log: this.deps.log,
      backoffMs: this.deps.backoffMs,
      snapshotMs: this.deps.snapshotMs,
      refreshMs: this.deps.refreshMs,
    });
    const unwatch = key.network === 'MAINNET' && this.prices ? this.prices.watch(key.exchange) : () => undefined;
    const slot: Slot = { state, refs: 0, idle: null, unwatch };
    this.slots.set(key.id, slot);
    state.start();
    return slot;
  }
}
