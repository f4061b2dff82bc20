import type { BookLevel, BookView, OrderFlowFeed, OrderFlowKey, OrderFlowStatus, TradePrint } from './types';

/** A level from its text, as the feeds make them. */
export const fakeLevel = (price: string, size: string): BookLevel => ({ price, size, p: Number(price), s: Number(size) });

/**
 * An order-flow feed a component test moves by hand (no socket): set the book, the prints or the
 * status, then `emit()` — the real feed's once-a-frame `onChange`. For panel tests only.
 */
export class FakeOrderFlowFeed implements OrderFlowFeed {
  readonly stats = { gaps: 0, checksumFailures: 0, resyncs: 0, reconnects: 0 };
  view: BookView = { bids: [], asks: [], version: 0, status: 'live', tickSize: '0.1' };
  prints: TradePrint[] = [];
  readonly listeners = new Set<() => void>();
  released = 0;

  constructor(readonly key: OrderFlowKey) {}

  book(depth?: number): BookView {
    return depth === undefined ? this.view : { ...this.view, bids: this.view.bids.slice(0, depth), asks: this.view.asks.slice(0, depth) };
  }

  trades(limit = 500): readonly TradePrint[] {
    return this.prints.slice(0, limit);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setBook(bids: Array<[string, string]>, asks: Array<[string, string]>, status: OrderFlowStatus = 'live'): void {
    this.view = { ...this.view, bids: bids.map(([p, s]) => fakeLevel(p, s)), asks: asks.map(([p, s]) => fakeLevel(p, s)), status, version: this.view.version + 1 };
  }

  setStatus(status: OrderFlowStatus, error?: string): void {
    this.view = { ...this.view, status, error, version: this.view.version + 1 };
  }

  /** The newest first, as the feed keeps them. */
  setPrints(prints: Array<Partial<TradePrint> & { price: string; size: string }>): void {
    this.prints = prints.map((t, i) => ({ time: t.time ?? Date.UTC(2026, 0, 1, 12, 0, 0, 0) - i, p: Number(t.price), s: Number(t.size), side: t.side ?? 'buy', count: t.count ?? 1, id: t.id ?? String(i), price: t.price, size: t.size }));
  }

  emit(): void {
    for (const l of this.listeners) l();
  }
}
