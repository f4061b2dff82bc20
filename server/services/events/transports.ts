import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { Db } from '../../db/client';

/** How events leave this instance and how other instances' events arrive. */
export interface EventTransport {
  readonly name: string;
  /** Inside the causing transaction: the message goes out if and only if it commits (PostgreSQL NOTIFY). */
  inTransaction?(tx: Db, message: string): Promise<void>;
  /** After the commit (Redis PUBLISH): a failure is logged by the bus, never thrown at the caller. */
  afterCommit?(message: string): Promise<void>;
  /**
   * Starts receiving. `onReconnect` runs after a dropped listener is back: what was published
   * meanwhile is lost, so subscribers re-check what they hold (the bus's `onResync`).
   */
  listen(onMessage: (message: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
}

/**
 * The database's own outage tracker warns once per outage (db/outage.ts): the listener that loses its
 * connection with it says so at info, its retries at debug, so an outage stays one warn in the log.
 */
export interface TransportLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** NOTIFY payloads are at most 8000 bytes; an event is a few ids. */
const MAX_NOTIFY_BYTES = 7900;

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

const isPglite = (c: unknown): c is PgliteLike => typeof c === 'object' && c !== null && typeof (c as { listen?: unknown }).listen === 'function';

/**
 * PostgreSQL `LISTEN/NOTIFY` on the product's own database (both drivers): `pg_notify` runs in the
 * transaction that caused the event, so other instances hear of a deleted key exactly when the
 * deletion commits. PGlite (one process) listens on its own client; PostgreSQL on one dedicated
 * connection outside the pool, re-opened with back-off when it drops.
 */
export function postgresTransport(db: Db, channel: string, log: TransportLog): EventTransport {
  return {
    name: 'postgres',
    async inTransaction(tx, message) {
      if (Buffer.byteLength(message) > MAX_NOTIFY_BYTES) throw new Error(`event too large for NOTIFY (${Buffer.byteLength(message)} bytes)`);
      await tx.execute(sql`select pg_notify(${channel}, ${message})`);
    },
    async listen(onMessage, onReconnect) {
      const client = (db as unknown as { $client: unknown }).$client;
      if (isPglite(client)) return client.listen(channel, onMessage);
      if (client instanceof pg.Pool) return listenPostgres(client.options, channel, onMessage, onReconnect, log);
      throw new Error('postgresTransport: the database client is neither PGlite nor a pg Pool');
    },
  };
}

function listenPostgres(options: pg.PoolConfig, channel: string, onMessage: (m: string) => void, onReconnect: () => void, log: TransportLog): Promise<() => Promise<void>> {
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
      log.info({ channel }, 'event listener lost its PostgreSQL connection; reconnecting');
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
      log.info({ channel }, 'event listener is back on PostgreSQL');
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
        log.debug({ channel, err }, 'event listener cannot reach PostgreSQL; retrying');
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
      // The app still starts: the listener keeps trying in the background.
      log.warn({ channel, err }, 'event listener cannot reach PostgreSQL; retrying');
      attempt = 1;
      schedule();
      return stop;
    },
  );
}

/**
 * Redis pub/sub when `REDIS_URL` is set: a second path between instances, published after the commit,
 * for deployments whose PostgreSQL sits behind a pooler that does not keep `LISTEN` sessions.
 */
export function redisTransport(redis: Redis, channel: string, log: TransportLog): EventTransport {
  return {
    name: 'redis',
    async afterCommit(message) {
      await redis.publish(channel, message);
    },
    async listen(onMessage, onReconnect) {
      const sub = redis.duplicate();
      let readyOnce = false;
      sub.on('error', () => undefined);
      sub.on('message', (ch: string, message: string) => {
        if (ch === channel) onMessage(message);
      });
      sub.on('ready', () => {
        sub.subscribe(channel).then(
          () => {
            if (readyOnce) onReconnect();
            readyOnce = true;
          },
          (err: unknown) => log.warn({ channel, err }, 'event listener cannot subscribe in Redis'),
        );
      });
      return async () => {
        sub.disconnect();
      };
    },
  };
}
