import { sha256Hex } from './sha256';

/** The part of the Web Storage API the stores use (localStorage in the app, a Map in tests). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What is written under a store's name: the zustand/valtio "persist" envelope. */
export interface PersistedEnvelope {
  state: unknown;
  version: number;
}

let storageOverride: StorageLike | null | undefined;

/**
 * Replace the storage the stores persist to (tests; or `null` to persist nowhere).
 * `undefined` restores the default, `globalThis.localStorage`.
 */
export function configureStateStorage(storage: StorageLike | null | undefined): void {
  storageOverride = storage;
}

/** The active storage, or null when none is usable (no DOM, or a browser that forbids it). */
export function getStateStorage(): StorageLike | null {
  if (storageOverride !== undefined) return storageOverride;
  try {
    // Reading `localStorage` itself throws a SecurityError when site data is blocked.
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The storage name of a per-user store: `<baseName>_<sha256hex(userId)>` while a user is signed in,
 * the bare `<baseName>` otherwise (SPEC §1: a name derived from a SHA-256 hash of the user id, with a
 * generic name after logout). Hashing keeps user ids out of the browser's storage listing.
 */
export async function storageNameFor(baseName: string, userId: string | null): Promise<string> {
  if (userId === null || userId === '') return baseName;
  return `${baseName}_${await sha256Hex(userId)}`;
}

/**
 * Reads an envelope. Anything that is not `{ state: object, version: positive integer }` — missing,
 * unparsable, hand-edited — reads as null so the caller falls back to defaults instead of crashing.
 */
export function parseEnvelope(raw: string | null): PersistedEnvelope | null {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { state, version } = parsed as Record<string, unknown>;
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return null;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) return null;
  return { state, version };
}

export function readItem(storage: StorageLike, name: string): string | null {
  try {
    return storage.getItem(name);
  } catch {
    return null;
  }
}

/** Writes; a full or forbidden storage costs persistence, never the running session. */
export function writeItem(storage: StorageLike, name: string, value: string): boolean {
  try {
    storage.setItem(name, value);
    return true;
  } catch (error) {
    console.warn(`Could not save ${name} locally`, error);
    return false;
  }
}
