import type { PageMeta } from '../../src/api/contracts/common';
import { badRequest } from '../lib/http-error';

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
