import { snapshot, subscribe } from 'valtio/vanilla';
import { getStateStorage, parseEnvelope, readItem, storageNameFor, writeItem } from './storage';

export interface PersistenceOptions<T extends object> {
  /** Generic storage name; the per-user name is derived from it (see `storageNameFor`). */
  baseName: string;
  /** Current storage version, written with every save. */
  version: number;
  /** The valtio proxy to load into and save from. */
  target: T;
  /** A complete, valid state from a stored state of `version` (migrate, then sanitise). */
  restore: (state: object, version: number) => T;
  defaults: () => T;
  /** Saves are coalesced: a slider drag must not write localStorage on every change. */
  debounceMs?: number;
}

export interface Persistence {
  /** Load the store from the user's name (migrating old versions) and save later changes there. */
  bind(userId: string | null): Promise<void>;
  /** Write a pending change now (page hide, sign-out). */
  flush(): void;
  /** The storage name currently bound, or null before the first bind. */
  boundName(): string | null;
  /** Another tab wrote `name` (a `storage` event): adopt its value without writing it back. */
  receiveExternal(name: string, raw: string | null): void;
}

/**
 * Connects one valtio proxy to localStorage under a per-user name. Stored data are never trusted:
 * missing, corrupt or future-version data load as defaults (with a console warning), so a bad
 * entry can never stop the app from starting.
 */
export function createPersistence<T extends object>(options: PersistenceOptions<T>): Persistence {
  const { baseName, version, target, restore, defaults, debounceMs = 300 } = options;
  let name: string | null = null;
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // The last JSON known to be in storage under `name`: unchanged state is not rewritten, which also
  // stops a value adopted from another tab from echoing back.
  let lastSaved: string | null = null;
  let generation = 0;

  const serialize = () => JSON.stringify({ state: snapshot(target), version });

  const save = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const storage = getStateStorage();
    if (name === null || storage === null) return;
    const json = serialize();
    if (json === lastSaved) return;
    if (writeItem(storage, name, json)) lastSaved = json;
  };

  const load = (raw: string | null): T => {
    const envelope = parseEnvelope(raw);
    if (raw !== null && envelope === null) console.warn(`Stored ${baseName} is unreadable; using defaults`);
    if (envelope === null) return defaults();
    if (envelope.version > version) {
      console.warn(`Stored ${baseName} has version ${envelope.version}, newer than ${version}; using defaults`);
      return defaults();
    }
    try {
      return restore(envelope.state as object, envelope.version);
    } catch (error) {
      console.warn(`Stored ${baseName} could not be migrated; using defaults`, error);
      return defaults();
    }
  };

  const hydrate = (next: T) => {
    const record = target as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!(key in next)) delete record[key];
    Object.assign(target, next);
  };

  if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
    window.addEventListener('pagehide', save);
    window.addEventListener('storage', (event) => {
      if (event.key !== null) persistence.receiveExternal(event.key, event.newValue);
    });
  }

  const persistence: Persistence = {
    async bind(userId) {
      const current = ++generation;
      save(); // the previous user's pending change belongs under the previous name
      unsubscribe?.();
      unsubscribe = null;
      const nextName = await storageNameFor(baseName, userId);
      if (current !== generation) return; // a later bind (fast sign-out/sign-in) wins
      name = nextName;
      const storage = getStateStorage();
      const raw = storage === null ? null : readItem(storage, nextName);
      lastSaved = raw;
      hydrate(load(raw));
      unsubscribe = subscribe(target, () => {
        if (timer !== null) clearTimeout(timer);
        timer = setTimeout(save, debounceMs);
      });
      save(); // a migrated or defaulted state is written back at once, in the current version
    },
    flush: save,
    boundName: () => name,
    receiveExternal(changedName, raw) {
      if (changedName !== name || raw === null || raw === lastSaved) return;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      lastSaved = raw;
      hydrate(load(raw));
    },
  };
  return persistence;
}
