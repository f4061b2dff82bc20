import type { ExchangeId } from '../../api/contracts/common';
import { SCANNER_VALUE_FIELDS, type ScannerExchangeStatus, type ScannerRow, type ScannerUpdateBlock, type ScannerValueField } from '../../api/contracts/scanner';

/**
 * The scanner's rows as the panel holds them between repaints: plain mutable objects in a map,
 * written by every stream message (cheap: no copies, no React), read by the repaint, which runs a
 * few times a second (`use-scanner-feed.ts`). Each row knows which of its cells changed since the
 * last repaint and which way, so the table flashes exactly those.
 */

export type FlashDirection = 'up' | 'down';

export interface BookRow extends ScannerRow {
  /** `exchange:symbol`, unique across exchanges. */
  key: string;
  /** Bumped when the row changes in a new repaint generation: the table rewrites a line only when this (or its flash) moved. */
  version: number;
  /** The repaint generation whose flash `flash` belongs to. */
  flashGen: number;
  flash: Partial<Record<ScannerValueField, FlashDirection>>;
}

export const rowKey = (exchange: ExchangeId, symbol: string): string => `${exchange}:${symbol}`;


export class ScannerBook {
  readonly rows = new Map<string, BookRow>();
  readonly statuses = new Map<ExchangeId, ScannerExchangeStatus>();
  /** The generation the last repaint showed; changes since then flash in generation + 1. */
  generation = 0;
  /** Something changed since the last repaint. */
  dirty = false;
  /** Bumped when rows come or go (not when values change): what lists of pairs or quotes key on. */
  structure = 0;

  /** Replaces an exchange's rows (a subscribe, or its pair list changed). Values that moved flash. */
  applySnapshot(exchange: ExchangeId, rows: readonly ScannerRow[], status: ScannerExchangeStatus): void {
    const seen = new Set<string>();
    for (const r of rows) {
      const key = rowKey(exchange, r.symbol);
      seen.add(key);
      const existing = this.rows.get(key);
      if (existing) this.patch(existing, r);
      else {
        this.rows.set(key, { ...r, key, version: 0, flashGen: 0, flash: {} });
        this.structure += 1;
      }
    }
    for (const [key, row] of this.rows) {
      if (row.exchange !== exchange || seen.has(key)) continue;
      this.rows.delete(key);
      this.structure += 1;
    }
    this.statuses.set(exchange, status);
    this.dirty = true;
  }

  /** An `update` message: blocks of rows, each `[symbol, ...values of the block's fields]`. */
  applyUpdate(exchange: ExchangeId, blocks: readonly ScannerUpdateBlock[]): void {
    for (const { fields, rows } of blocks) {
      for (const values of rows) {
        const row = this.rows.get(rowKey(exchange, values[0]));
        if (!row) continue;
        for (let k = 0; k < fields.length; k++) this.set(row, fields[k], values[k + 1] as number | null);
      }
    }
  }

  applyStatus(status: ScannerExchangeStatus): void {
    this.statuses.set(status.exchange, status);
    this.dirty = true;
  }

  /** Forgets an exchange nobody watches any more. */
  dropExchange(exchange: ExchangeId): void {
    for (const [key, row] of this.rows) if (row.exchange === exchange) this.rows.delete(key);
    this.structure += 1;
    this.statuses.delete(exchange);
    this.dirty = true;
  }

  /** Closes the changes since the last repaint into a new generation (their flashes show in it). */
  commit(): number {
    this.dirty = false;
    this.generation += 1;
    return this.generation;
  }

  private patch(row: BookRow, values: Partial<ScannerRow>): void {
    for (const field of SCANNER_VALUE_FIELDS) {
      const next = values[field];
      if (next !== undefined) this.set(row, field, next);
    }
  }

  /** One value; a change bumps the row's version and marks the cell to flash in the next repaint. */
  private set(row: BookRow, field: ScannerValueField, next: number | null): void {
    const prev = row[field];
    if (next === prev) return;
    row[field] = next;
    const gen = this.generation + 1;
    if (row.flashGen !== gen) {
      row.flashGen = gen;
      row.flash = {};
      row.version += 1;
    }
    if (prev !== null && next !== null) row.flash[field] = next > prev ? 'up' : 'down';
    this.dirty = true;
  }
}
