import type { StorageLike } from './storage';

/** An in-memory Web Storage for node tests (Node 20 has no localStorage). */
export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  writes = 0;
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.writes++;
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  json(key: string): unknown {
    const raw = this.items.get(key);
    return raw === undefined ? undefined : JSON.parse(raw);
  }
}
