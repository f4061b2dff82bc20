import type { Network } from '../../../src/api/contracts/common';
import type { StreamServerMessage, StreamState } from '../../../src/api/contracts/trading';
import type { AccountView } from './account-state';
import type { AccountLease } from './account-states';

/**
 * One key's account as the user's tabs see it (DESIGN §3.3), served from the key's account state
 * (`account-state.ts`, issue 26 §2): its events in the one model as they come, `status` on every change,
 * and a `snapshot` whenever the state was read again (a (re)connect, the slow timer) or its positions and
 * balance changed — from the server's copy, never a REST read per event.
 */
export interface StreamSubscriber {
  send(msg: StreamServerMessage): void;
  /** The key's stream ended for good (the key was deleted): the subscriber drops it. */
  ended?(apiKeyId: string): void;
}

export class AccountStream {
  readonly subscribers = new Set<StreamSubscriber>();
  private readonly unlisten: () => void;
  private closed = false;

  constructor(private readonly lease: AccountLease) {
    const state = lease.state;
    const snapshot = (view: AccountView) => this.broadcast({ type: 'snapshot', apiKeyId: this.apiKeyId, ...view });
    this.unlisten = state.listen({
      status: () => this.broadcast(this.statusMessage()),
      snapshot,
      account: snapshot,
      order: (order) => this.broadcast({ type: 'order', apiKeyId: this.apiKeyId, order }),
      fill: (fill) => this.broadcast({ type: 'fill', apiKeyId: this.apiKeyId, fill }),
      error: (message) => this.broadcast({ type: 'error', apiKeyId: this.apiKeyId, message }),
    });
  }

  get apiKeyId(): string {
    return this.lease.state.apiKeyId;
  }

  get network(): Network {
    return this.lease.state.network;
  }

  /** A new subscriber gets the current status and, once there is one, the state as held now. */
  add(sub: StreamSubscriber): void {
    this.subscribers.add(sub);
    sub.send(this.statusMessage());
    const view = this.lease.state.view();
    if (view && this.lease.state.ordersFresh) sub.send({ type: 'snapshot', apiKeyId: this.apiKeyId, ...view });
  }

  remove(sub: StreamSubscriber): void {
    this.subscribers.delete(sub);
  }

  /** Stops serving the tabs and releases the state; with a `reason`, the key's stream ended for good. */
  close(reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    this.unlisten();
    if (reason) {
      this.broadcast(this.statusMessage('error', reason));
      for (const sub of this.subscribers) sub.ended?.(this.apiKeyId);
    }
    this.subscribers.clear();
    this.lease.release();
  }

  private statusMessage(state?: StreamState, reason?: string): StreamServerMessage {
    const now = this.lease.state.status;
    const why = state ? reason : now.reason;
    return { type: 'status', apiKeyId: this.apiKeyId, state: state ?? now.state, network: this.network, ...(why ? { reason: why } : {}) };
  }

  private broadcast(msg: StreamServerMessage): void {
    for (const s of this.subscribers) s.send(msg);
  }
}
