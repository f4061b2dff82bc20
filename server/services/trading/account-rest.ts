import type { Balance, Order, Position } from '../../../src/api/contracts/trading';
import type { AccountPart } from '../../exchanges/private-stream';
import type { TradingConnector } from '../../exchanges/trading';
import type { AccountStateDeps } from './account-state';

/** The slow reconcile reads open orders symbol by symbol up to this many symbols (`openOrders`). */
const BY_SYMBOL_MAX = 10;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What the state holds: the symbols a partial read of open orders covers. */
export interface HeldSymbols {
  orders: Iterable<Order>;
  positions: readonly Position[];
}

/**
 * The REST reads of a key's account state (`account-state.ts`): which connector each goes through — the
 * reads the guards wait on (a (re)connect's snapshot, a position change) as a job's, the others in the
 * background where the exchange weighs reads per address — and the fills a (re)connect may have missed.
 */
export class AccountRest {
  /** REST reads of positions and balance since the state opened (the budget's tests read them). */
  readonly counts: Record<AccountPart, number> = { positions: 0, balance: 0 };

  constructor(private readonly deps: Pick<AccountStateDeps, 'connector' | 'background' | 'ctx' | 'record' | 'log' | 'key'>) {}

  /** The connector of reads the guards wait on. */
  get waited(): TradingConnector {
    return this.deps.connector;
  }

  /** The connector of reads no one waits on. */
  get idle(): TradingConnector {
    return this.deps.background ?? this.deps.connector;
  }

  positions(c: TradingConnector): Promise<Position[]> {
    this.counts.positions += 1;
    return c.positions();
  }

  balance(c: TradingConnector): Promise<Balance> {
    this.counts.balance += 1;
    return c.balance();
  }

  /**
   * Every open order — or, on the slow reconcile where the exchange weighs reads per address (Binance: every
   * open order weighs 40, one symbol's 1), those of the symbols the state holds orders or positions in, one
   * symbol at a time, when they are few: the stream told of the others, and a gap's reconnect reads them all.
   */
  async openOrders(full: boolean, c: TradingConnector, held: HeldSymbols): Promise<Order[]> {
    if (full || !this.deps.ctx.addressPacer) return c.openOrders();
    const symbols = new Set([...[...held.orders].map((o) => o.symbol), ...held.positions.map((p) => p.symbol)]);
    const insts = [...symbols].map((s) => this.deps.ctx.instrument(s));
    if (symbols.size > BY_SYMBOL_MAX || insts.some((i) => !i)) return c.openOrders();
    const lists = await Promise.all(insts.map((i) => c.openOrders(i)));
    return lists.flat();
  }

  /** Open orders, positions and balance: a (re)connect's (`waited`, every open order) or the slow timer's. */
  snapshot(waited: boolean, held: HeldSymbols): Promise<[Order[], Position[], Balance]> {
    const c = waited ? this.waited : this.idle;
    return Promise.all([this.openOrders(waited, c, held), this.positions(c), this.balance(c)]);
  }

  /** A (re)connect may have missed fills: those of the symbols involved are read and recorded. */
  async recordFills(orders: Order[], positions: Position[]): Promise<void> {
    const symbols = new Set([...positions.map((p) => p.symbol), ...orders.map((o) => o.symbol)]);
    for (const s of symbols) {
      const inst = this.deps.ctx.instrument(s);
      if (!inst) continue;
      try {
        await this.deps.record(inst, (await this.deps.connector.fills(inst)).data);
      } catch (err) {
        this.deps.log.warn({ err: message(err), apiKeyId: this.deps.key.id }, 'recording fills failed');
      }
    }
  }
}
