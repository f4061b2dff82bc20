import { z } from 'zod';
import { storedLayoutSchema, type StoredLayout } from '../api/contracts/settings';
import { getStateStorage, parseEnvelope, readItem, storageNameFor, writeItem } from './storage';

/**
 * This device's copy of the workstation layout. The server copy (`layout` in the server settings)
 * is the one that follows the user; this one makes a change survive a reload that happens before
 * the debounced server save (or while the server is unreachable). `synced: false` marks a copy the
 * server has not confirmed yet: on the next load it wins over an older server copy and is sent again.
 */
export const WORKSTATION_LAYOUT_CACHE_NAME = 'workstation_layout';
export const WORKSTATION_LAYOUT_CACHE_VERSION = 1;

const localLayoutCopySchema = z.object({ layout: storedLayoutSchema, synced: z.boolean() });
export type LocalLayoutCopy = z.infer<typeof localLayoutCopySchema>;

/** The per-user storage name (SHA-256 of the id, SPEC §1). */
export function workstationLayoutCacheName(userId: string | null): Promise<string> {
  return storageNameFor(WORKSTATION_LAYOUT_CACHE_NAME, userId);
}

/** The stored copy, or null when there is none or it is unreadable (never throws). */
export function readLocalLayout(name: string): LocalLayoutCopy | null {
  const storage = getStateStorage();
  const envelope = parseEnvelope(storage === null ? null : readItem(storage, name));
  if (envelope === null || envelope.version !== WORKSTATION_LAYOUT_CACHE_VERSION) return null;
  const parsed = localLayoutCopySchema.safeParse(envelope.state);
  return parsed.success ? parsed.data : null;
}

export function writeLocalLayout(name: string, copy: LocalLayoutCopy): boolean {
  const storage = getStateStorage();
  if (storage === null) return false;
  return writeItem(storage, name, JSON.stringify({ state: copy, version: WORKSTATION_LAYOUT_CACHE_VERSION }));
}

/**
 * Which layout to open: an unconfirmed local copy newer than the server's (a change made just before
 * a reload, or while offline), else the server's, else any local copy (server settings unavailable).
 * `push` says the chosen layout still has to be sent to the server.
 */
export function chooseLayoutSource(
  server: StoredLayout | null,
  local: LocalLayoutCopy | null,
): { layout: StoredLayout | null; push: boolean } {
  if (local && !local.synced && (server === null || local.layout.savedAt > server.savedAt)) return { layout: local.layout, push: true };
  if (server) return { layout: server, push: false };
  return { layout: local?.layout ?? null, push: false };
}
