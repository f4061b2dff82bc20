import pg from 'pg';
import type { Db } from './client';

/**
 * `LISTEN` on the product's own database, for either driver: PGlite (one process) listens on its own
 * client; PostgreSQL on one dedicated connection outside the pool (no statement or query timeout),
 * re-opened with back-off when it drops — then `onReconnect` runs, since what was notified meanwhile
 * is lost and the subscriber must catch up from what it has seen.
 *
 * One connection per database client and channel, shared by every subscriber in the process (the
 * four paper venues of two app instances on one pool hold one connection between them).
 */
export interface ChannelSubscriber {
  onMessage(payload: string): void;
  onReconnect?(): void;
}

export interface ListenLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

const SILENT: ListenLog = { warn: () => undefined, info: () => undefined, debug: () => undefined };

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

const isPglite = (c: unknown): c is PgliteLike => typeof c === 'object' && c !== null && typeof (c as { listen?: unknown }).listen === 'function';

interface Shared {
  subscribers: Set<ChannelSubscriber>;
  stop: Promise<() => Promise<void>>;
}

const shared = new WeakMap<object, Map<string, Shared>>();

/** Subscribes to `channel`; resolves once listening (or, on PostgreSQL, once the first attempt failed and retries are scheduled). */
export async function listenChannel(db: Db, channel: string, subscriber: ChannelSubscriber, log: ListenLog = SILENT): Promise<() => Promise<void>> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (typeof client !== 'object' || client === null) throw new Error('listenChannel: the database has no client');
  let channels = shared.get(client);
  if (!channels) shared.set(client, (channels = new Map()));
  let entry = channels.get(channel);
  if (!entry) {
    const subscribers = new Set<ChannelSubscriber>();
    const onMessage = (m: string) => {
      for (const s of [...subscribers]) s.onMessage(m);
    };
    const onReconnect = () => {
      for (const s of [...subscribers]) s.onReconnect?.();
    };
    let stop: Promise<() => Promise<void>>;
    if (isPglite(client)) stop = client.listen(channel, onMessage);
    else if (client instanceof pg.Pool) stop = listenPostgres(client.options, channel, onMessage, onReconnect, log);
    else throw new Error('listenChannel: the database client is neither PGlite nor a pg Pool');
    const created: Shared = { subscribers, stop };
    // A listener that could not start is not kept: the next subscriber tries again.
    stop.catch(() => {
      if (channels.get(channel) === created) channels.delete(channel);
    });
    entry = created;
    channels.set(channel, entry);
  }
  const mine = entry;
  mine.subscribers.add(subscriber);
  await mine.stop;
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    mine.subscribers.delete(subscriber);
    if (mine.subscribers.size > 0 || channels.get(channel) !== mine) return;
    channels.delete(channel);
    await (await mine.stop)().catch(() => undefined);
  };
}

function listenPostgres(options: pg.PoolConfig, channel: string, onMessage: (m: string) => void, onReconnect: () => void, log: ListenLog): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let attempt = 0;
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ ...options, query_timeout: undefined, statement_timeout: undefined });
    client.on('error', () => undefined);
    client.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onMessage(n.payload);
    });
    client.on('end', () => {
      if (current !== client || stopped) return;
      current = null;
      log.info({ channel }, 'listener lost its PostgreSQL connection; reconnecting');
      schedule();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    if (attempt > 0) {
      log.info({ channel }, 'listener is back on PostgreSQL');
      onReconnect();
    }
    attempt = 0;
  };
  const schedule = () => {
    if (stopped || retry) return;
    const wait = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
    attempt += 1;
    retry = setTimeout(() => {
      retry = null;
      connect().catch((err: unknown) => {
        log.debug({ channel, err }, 'listener cannot reach PostgreSQL; retrying');
        schedule();
      });
    }, wait);
    retry.unref?.();
  };
  const stop = async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const c = current;
    current = null;
    await c?.end().catch(() => undefined);
  };
  return connect().then(
    () => stop,
    (err: unknown) => {
      log.warn({ channel, err }, 'listener cannot reach PostgreSQL; retrying');
      attempt = 1;
      schedule();
      return stop;
    },
  );
}
