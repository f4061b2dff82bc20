import type { FastifyBaseLogger } from 'fastify';
import type { Network } from '../../../src/api/contracts/common';
import type { Fill, Order, StreamServerMessage, StreamState } from '../../../src/api/contracts/trading';
import type { ApiKeyRow } from '../../db/schema-api-keys';
import type { OpenSocket, PrivateEvent, PrivateStream, PrivateStreamDriver } from '../../exchanges/private-stream';
import type { ConnectorContext, TradingConnector, TradingInstrument } from '../../exchanges/trading';
import { tagOrder } from './ids';

/**
 * One exchange connection per key, shared by all of the user's tabs (DESIGN §3.3): the exchange's
 * private stream, its events in the one model, `status` on every change, and a REST reconcile (a
 * `snapshot`) after every (re)connect and every account change, so nothing is missed across a drop.
 */
export interface StreamSubscriber {
  send(msg: StreamServerMessage): void;
  /** The key's stream ended for good (the key was deleted): the subscriber drops it. */
  ended?(apiKeyId: string): void;
}

export interface AccountStreamDeps {
  key: ApiKeyRow;
  connector: TradingConnector;
  ctx: ConnectorContext;
  driver: PrivateStreamDriver;
  open: OpenSocket;
  /** Records fills seen on the stream or in a reconcile (once each). */
  record(inst: TradingInstrument, fills: Fill[]): Promise<number>;
  log: FastifyBaseLogger;
  /** Back-off before reconnect attempt n (ms). */
  backoffMs?: (attempt: number) => number;
  /** How long account signals are gathered before one reconcile. */
  reconcileDelayMs?: number;
}

const defaultBackoff = (n: number) => Math.min(30_000, 500 * 2 ** Math.min(n, 6));

export class AccountStream {
  readonly subscribers = new Set<StreamSubscriber>();
  private state: StreamState = 'connecting';
  private reason: string | undefined;
  private stream: PrivateStream | null = null;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private last: Extract<StreamServerMessage, { type: 'snapshot' }> | null = null;
  private readonly created = new Map<string, string>();

  constructor(private readonly deps: AccountStreamDeps) {}

  get apiKeyId(): string {
    return this.deps.key.id;
  }

  get network(): Network {
    return this.deps.key.network;
  }

  start(): void {
    void this.connect();
  }

  /** A new subscriber gets the current status and, once there is one, the last snapshot. */
  add(sub: StreamSubscriber): void {
    this.subscribers.add(sub);
    sub.send(this.statusMessage());
    if (this.last) sub.send(this.last);
  }

  remove(sub: StreamSubscriber): void {
    this.subscribers.delete(sub);
  }

  close(reason?: string): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    this.stream?.close();
    this.stream = null;
    if (reason) {
      this.setState('error', reason);
      for (const sub of this.subscribers) sub.ended?.(this.apiKeyId);
    }
    this.subscribers.clear();
  }

  private statusMessage(): StreamServerMessage {
    return { type: 'status', apiKeyId: this.apiKeyId, state: this.state, network: this.network, ...(this.reason ? { reason: this.reason } : {}) };
  }

  private broadcast(msg: StreamServerMessage): void {
    for (const s of this.subscribers) s.send(msg);
  }

  private setState(state: StreamState, reason?: string): void {
    this.state = state;
    this.reason = reason;
    this.broadcast(this.statusMessage());
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      const stream = await this.deps.driver(this.deps.ctx, this.deps.open, {
        event: (e) => this.onEvent(e),
        closed: (reason) => this.onClosed(reason),
      });
      if (this.stopped) {
        stream.close();
        return;
      }
      this.stream = stream;
      this.attempt = 0;
      this.setState('connected');
      await this.reconcile();
    } catch (err) {
      this.onClosed(err instanceof Error ? err.message : String(err));
    }
  }

  private onClosed(reason: string): void {
    this.stream = null;
    if (this.stopped) return;
    const wait = (this.deps.backoffMs ?? defaultBackoff)(this.attempt++);
    this.setState(this.attempt > 5 ? 'error' : 'reconnecting', `${reason}; retrying in ${Math.ceil(wait / 1000)} s`);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
    this.retryTimer.unref?.();
  }

  private onEvent(e: PrivateEvent): void {
    if (e.kind === 'order') {
      this.broadcast({ type: 'order', apiKeyId: this.apiKeyId, order: this.withCreated(tagOrder(e.order)) });
    } else if (e.kind === 'fill') {
      this.broadcast({ type: 'fill', apiKeyId: this.apiKeyId, fill: e.fill });
      const inst = this.deps.ctx.instrument(e.fill.symbol);
      if (inst) void this.deps.record(inst, [e.fill]).catch((err: unknown) => this.deps.log.warn({ err: String(err) }, 'recording a stream fill failed'));
      this.scheduleReconcile();
    } else {
      this.scheduleReconcile();
    }
  }

  /** Stream updates carry the update time; keep the creation time the snapshot knew. */
  private withCreated(o: Order): Order {
    const known = this.created.get(o.id);
    if (known) return { ...o, createdAt: known };
    this.created.set(o.id, o.createdAt);
    return o;
  }

  private scheduleReconcile(): void {
    if (this.reconcileTimer) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = null;
      void this.reconcile();
    }, this.deps.reconcileDelayMs ?? 150);
    this.reconcileTimer.unref?.();
  }

  /** REST: open orders, positions and balance → one snapshot; fills of the symbols involved are recorded. */
  reconcile(): Promise<void> {
    this.reconciling ??= (async () => {
      try {
        const c = this.deps.connector;
        const [orders, positions, balance] = await Promise.all([c.openOrders(), c.positions(), c.balance()]);
        if (this.stopped) return;
        for (const o of orders) this.created.set(o.id, o.createdAt);
        this.last = { type: 'snapshot', apiKeyId: this.apiKeyId, orders: orders.map(tagOrder), positions, balance };
        this.broadcast(this.last);
        const symbols = new Set([...positions.map((p) => p.symbol), ...orders.map((o) => o.symbol)]);
        for (const s of symbols) {
          const inst = this.deps.ctx.instrument(s);
          if (inst) await this.deps.record(inst, (await c.fills(inst)).data);
        }
      } catch (err) {
        this.deps.log.warn({ err: err instanceof Error ? err.message : String(err), apiKeyId: this.apiKeyId }, 'account stream reconcile failed');
        if (!this.stopped) this.broadcast({ type: 'error', apiKeyId: this.apiKeyId, message: `Could not read the account: ${err instanceof Error ? err.message : String(err)}` });
      }
    })().finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }
}
