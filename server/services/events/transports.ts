import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client';
import { listenChannel } from '../../db/listen';

/** How events leave this instance and how other instances' events arrive. */
export interface EventTransport {
  readonly name: string;
  /**
   * Inside the causing transaction, at the end of its work: its messages, in order, go out if and only if it
   * commits (PostgreSQL NOTIFY) — all in one statement, however many events the transaction published.
   */
  inTransaction?(tx: Db, messages: readonly string[]): Promise<void>;
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

/**
 * PostgreSQL `LISTEN/NOTIFY` on the product's own database (both drivers): `pg_notify` runs in the
 * transaction that caused the event, so other instances hear of a deleted key exactly when the
 * deletion commits. Listening is `db/listen.ts` (PGlite on its own client; PostgreSQL on one dedicated
 * connection outside the pool, re-opened with back-off when it drops, then `onReconnect`).
 */
export function postgresTransport(db: Db, channel: string, log: TransportLog): EventTransport {
  return {
    name: 'postgres',
    async inTransaction(tx, messages) {
      for (const m of messages) if (Buffer.byteLength(m) > MAX_NOTIFY_BYTES) throw new Error(`event too large for NOTIFY (${Buffer.byteLength(m)} bytes)`);
      if (!messages.length) return;
      // unnest reads the array in order: the notifications are queued, and heard, in the order published.
      await tx.execute(sql`select pg_notify(${channel}, m) from unnest(array[${sql.join(messages.map((m) => sql`${m}`), sql`, `)}]::text[]) as m`);
    },
    listen: (onMessage, onReconnect) => listenChannel(db, channel, { onMessage, onReconnect }, log),
  };
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
