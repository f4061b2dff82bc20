import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PageMeta } from '../../src/api/contracts/common';
import { decodeCursor, encodeCursor } from './users';

/**
 * Cursor paging over a list ordered newest first by (time, id), the way `GET /v1/users` pages
 * (same opaque cursors, SPEC §3 "Paged lists"), for any table: the caller runs the query with the
 * extra condition, order and limit this builds.
 */
export interface KeysetPageOptions<T> {
  cursor?: string;
  limit: number;
  time: AnyPgColumn;
  id: AnyPgColumn;
  /** The row's position: its time and id. */
  position: (row: T) => { time: Date; id: string };
  /** Runs the list query with `beyond` (null on the first page) ANDed to the caller's filters. */
  run: (beyond: SQL | null, order: SQL[], limit: number) => Promise<T[]>;
}

type Direction = 'next' | 'prev';

export async function keysetPage<T>(opts: KeysetPageOptions<T>): Promise<{ data: T[]; meta: PageMeta }> {
  const cursor = opts.cursor ? decodeCursor(opts.cursor) : null;
  const dir: Direction = cursor?.dir ?? 'next';
  const beyond = (pos: { time: Date; id: string }, d: Direction): SQL =>
    d === 'next'
      ? sql`(${opts.time}, ${opts.id}) < (${pos.time.toISOString()}::timestamptz, ${pos.id}::uuid)`
      : sql`(${opts.time}, ${opts.id}) > (${pos.time.toISOString()}::timestamptz, ${pos.id}::uuid)`;
  const order = dir === 'next' ? [desc(opts.time), desc(opts.id)] : [asc(opts.time), asc(opts.id)];

  const rows = await opts.run(cursor ? beyond({ time: cursor.createdAt, id: cursor.id }, dir) : null, order, opts.limit + 1);
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
  const at = (row: T) => {
    const p = opts.position(row);
    return { createdAt: p.time, id: p.id };
  };
  return {
    data: page,
    meta: {
      nextCursor: hasNext ? encodeCursor(at(page[page.length - 1]), 'next') : null,
      previousCursor: hasPrev ? encodeCursor(at(page[0]), 'prev') : null,
    },
  };
}
