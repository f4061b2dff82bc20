import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isStorableInstant, type PageMeta } from '../../src/api/contracts/common';
import { badRequest } from '../lib/http-error';

/**
 * Cursor paging over a list ordered newest first by (time, id) — SPEC §3 "Paged lists" — for any
 * table or join: the caller runs its query with the extra condition, order and limit built here.
 * Every keyset-paged list of the API (users, funded users, invitations, referrers, transactions)
 * goes through `keysetPage`, so all their cursors have one format.
 */
type Direction = 'next' | 'prev';
interface Position {
  time: Date;
  id: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque to clients: base64url of the row position and the direction to read from it. */
export function encodeCursor(pos: Position, dir: Direction): string {
  return Buffer.from(JSON.stringify({ t: pos.time.toISOString(), i: pos.id, d: dir })).toString('base64url');
}

export function decodeCursor(cursor: string): Position & { dir: Direction } {
  try {
    const raw: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (raw && typeof raw === 'object') {
      const { t, i, d } = raw as Record<string, unknown>;
      const time = typeof t === 'string' ? new Date(t) : null;
      // Only instants a timestamptz holds: a JS Date reaches years PostgreSQL refuses (year 0,
      // -1000, +200000), and such a cursor once reached the query and answered 500.
      if (time && isStorableInstant(time.getTime()) && typeof i === 'string' && UUID_RE.test(i) && (d === 'next' || d === 'prev')) {
        return { time, id: i, dir: d };
      }
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('Invalid cursor: use a nextCursor or previousCursor from a previous page', { cursor: 'Invalid cursor' });
}

export interface KeysetPageOptions<T> {
  cursor?: string;
  limit: number;
  time: AnyPgColumn;
  id: AnyPgColumn;
  /** The row's position: its time and id. */
  position: (row: T) => Position;
  /** Runs the list query with `beyond` (undefined on the first page) ANDed to the caller's filters. */
  run: (beyond: SQL | undefined, order: SQL[], limit: number) => Promise<T[]>;
}

export async function keysetPage<T>(opts: KeysetPageOptions<T>): Promise<{ data: T[]; meta: PageMeta }> {
  const cursor = opts.cursor ? decodeCursor(opts.cursor) : null;
  const dir: Direction = cursor?.dir ?? 'next';
  // Row comparison keeps ties on the time in a stable order without an OR chain.
  const beyond = (pos: Position, d: Direction): SQL =>
    d === 'next'
      ? sql`(${opts.time}, ${opts.id}) < (${pos.time.toISOString()}::timestamptz, ${pos.id}::uuid)`
      : sql`(${opts.time}, ${opts.id}) > (${pos.time.toISOString()}::timestamptz, ${pos.id}::uuid)`;
  const order = dir === 'next' ? [desc(opts.time), desc(opts.id)] : [asc(opts.time), asc(opts.id)];

  const rows = await opts.run(cursor ? beyond(cursor, dir) : undefined, order, opts.limit + 1);
  const more = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  if (dir === 'prev') page.reverse();

  const exists = async (row: T, d: Direction) => (await opts.run(beyond(opts.position(row), d), [], 1)).length > 0;
  let hasNext = false;
  let hasPrev = false;
  if (page.length) {
    if (dir === 'next') {
      hasNext = more;
      hasPrev = cursor ? await exists(page[0], 'prev') : false;
    } else {
      hasPrev = more;
      hasNext = await exists(page[page.length - 1], 'next');
    }
  }
  return {
    data: page,
    meta: {
      nextCursor: hasNext ? encodeCursor(opts.position(page[page.length - 1]), 'next') : null,
      previousCursor: hasPrev ? encodeCursor(opts.position(page[0]), 'prev') : null,
    },
  };
}
