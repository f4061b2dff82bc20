import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { PageMeta } from '../../src/api/contracts/common';
import { badRequest } from '../lib/http-error';
import { decodeCursor, encodeCursor } from './users';

type Direction = 'next' | 'prev';
interface Position {
  createdAt: Date;
  id: string;
}

/**
 * Keyset paging over a list ordered newest first by (created_at, id), the same cursor format as
 * `GET /v1/users`. `fetch` runs the caller's query with the extra condition, order and limit, so
 * any table or join can page this way.
 */
export interface KeysetSource<T extends Position> {
  createdAt: PgColumn;
  id: PgColumn;
  fetch: (beyond: SQL | undefined, order: 'desc' | 'asc', limit: number) => Promise<T[]>;
}

function beyond(src: { createdAt: PgColumn; id: PgColumn }, pos: Position, dir: Direction): SQL {
  return dir === 'next'
    ? sql`(${src.createdAt}, ${src.id}) < (${pos.createdAt.toISOString()}::timestamptz, ${pos.id}::uuid)`
    : sql`(${src.createdAt}, ${src.id}) > (${pos.createdAt.toISOString()}::timestamptz, ${pos.id}::uuid)`;
}

export async function keysetPage<T extends Position>(src: KeysetSource<T>, limit: number, cursor?: string): Promise<{ data: T[]; meta: PageMeta }> {
  const pos = cursor ? decodeCursor(cursor) : null;
  const dir: Direction = pos?.dir ?? 'next';
  const rows = await src.fetch(pos ? beyond(src, pos, dir) : undefined, dir === 'next' ? 'desc' : 'asc', limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (dir === 'prev') page.reverse();
  const exists = async (p: Position, d: Direction) => (await src.fetch(beyond(src, p, d), d === 'next' ? 'desc' : 'asc', 1)).length > 0;
  let hasNext = false;
  let hasPrev = false;
  if (page.length > 0) {
    if (dir === 'next') {
      hasNext = more;
      hasPrev = pos ? await exists(page[0], 'prev') : false;
    } else {
      hasPrev = more;
      hasNext = await exists(page[page.length - 1], 'next');
    }
  }
  return {
    data: page,
    meta: {
      nextCursor: hasNext ? encodeCursor(page[page.length - 1], 'next') : null,
      previousCursor: hasPrev ? encodeCursor(page[0], 'prev') : null,
    },
  };
}

/**
 * Offset cursors, for lists of aggregates that have no stable row key (trading volume). Opaque to
 * clients like the keyset ones.
 */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

export function decodeOffsetCursor(cursor: string): number {
  try {
    const raw: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).o : undefined;
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0 && o <= 10_000_000) return o;
  } catch {
    // the 400 below
  }
  throw badRequest('Invalid cursor: use a nextCursor or previousCursor from a previous page', { cursor: 'Invalid cursor' });
}

export function offsetMeta(offset: number, limit: number, more: boolean): PageMeta {
  return {
    nextCursor: more ? encodeOffsetCursor(offset + limit) : null,
    previousCursor: offset > 0 ? encodeOffsetCursor(Math.max(0, offset - limit)) : null,
  };
}
