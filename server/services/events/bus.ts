import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { APP_EVENTS, envelopeSchema, type AppEvent, type AppEventName, type Envelope } from './events';
import type { EventTransport, TransportLog } from './transports';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Emit = <K extends AppEventName>(name: K, payload: AppEvent<K>) => Promise<void>;
type Handler<K extends AppEventName> = (payload: AppEvent<K>) => void | Promise<void>;
type TxHandler<K extends AppEventName> = (tx: Tx, payload: AppEvent<K>) => Promise<void>;

export interface EventBusLog extends TransportLog {
  error(obj: object, msg: string): void;
}

/** How many event ids are remembered to drop the second copy (an event may arrive by NOTIFY and by Redis). */
const SEEN_CAP = 2048;

/**
 * The server's typed events (DESIGN §6, issue 23): services publish what happened, subscribers act.
 * A published event reaches this instance's subscribers right after the commit, and every other
 * instance's through the transports (PostgreSQL NOTIFY always, Redis pub/sub as well when configured).
 * Events published in a transaction that rolls back reach nobody.
 */
export class EventBus {
  readonly origin: string;
  private readonly handlers = new Map<AppEventName, Set<Handler<AppEventName>>>();
  private readonly txHandlers = new Map<AppEventName, Set<TxHandler<AppEventName>>>();
  private readonly resyncHandlers = new Set<() => void | Promise<void>>();
  private readonly seen = new Set<string>();
  private stops: Array<() => Promise<void>> = [];

  constructor(private readonly opts: { db: Db; transports: EventTransport[]; log: EventBusLog; origin?: string }) {
    this.origin = opts.origin ?? randomUUID();
  }

  /** Starts hearing other instances (the app's onReady). */
  async start(): Promise<void> {
    for (const t of this.opts.transports) {
      this.stops.push(await t.listen((m) => this.receive(m, t.name), () => this.resync()));
    }
  }

  async stop(): Promise<void> {
    const stops = this.stops;
    this.stops = [];
    await Promise.all(stops.map((s) => s().catch(() => undefined)));
  }

  on<K extends AppEventName>(name: K, handler: Handler<K>): () => void {
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    const h = handler as Handler<AppEventName>;
    set.add(h);
    return () => set.delete(h);
  }

  /**
   * A database effect of the event, run inside the transaction that emits it (on the publishing
   * instance only, once): it commits or rolls back with the cause. A failure rolls the cause back.
   */
  within<K extends AppEventName>(name: K, handler: TxHandler<K>): () => void {
    let set = this.txHandlers.get(name);
    if (!set) this.txHandlers.set(name, (set = new Set()));
    const h = handler as TxHandler<AppEventName>;
    set.add(h);
    return () => set.delete(h);
  }

  /** A listener was away and may have missed events: re-check what is held (open streams' keys, say). */
  onResync(handler: () => void | Promise<void>): () => void {
    this.resyncHandlers.add(handler);
    return () => this.resyncHandlers.delete(handler);
  }

  /**
   * Runs `work` in one transaction of `db`: the events it `emit`s are part of it — sent with the
   * commit, dropped with a rollback — and reach this instance's subscribers once it has committed.
   */
  async transaction<T>(db: Db, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
    const emitted: Envelope[] = [];
    const result = await db.transaction(async (tx) => {
      const emit: Emit = async (name, payload) => {
        const env = this.envelope(name, payload);
        for (const h of this.txHandlers.get(name) ?? []) await h(tx, env.payload as AppEvent<AppEventName>);
        emitted.push(env);
      };
      const out = await work(tx, emit);
      // One statement for all of the transaction's events (a burst of fired alerts publishes dozens), sent with it.
      if (emitted.length) {
        const messages = emitted.map((env) => JSON.stringify(env));
        for (const t of this.opts.transports) await t.inTransaction?.(tx as unknown as Db, messages);
      }
      return out;
    });
    await this.delivered(emitted);
    return result;
  }

  /** An event with no database effect of its own (its NOTIFY is a one-statement transaction). */
  async publish<K extends AppEventName>(name: K, payload: AppEvent<K>): Promise<void> {
    await this.transaction(this.opts.db, (_tx, emit) => emit(name, payload));
  }

  private envelope<K extends AppEventName>(name: K, payload: AppEvent<K>): Envelope {
    return { id: randomUUID(), origin: this.origin, name, payload: APP_EVENTS[name].parse(payload) };
  }

  private async delivered(envs: Envelope[]): Promise<void> {
    if (!envs.length) return;
    // Sent to the other instances all at once (a Redis connection keeps them in order), heard here meanwhile.
    const sent = this.opts.transports.flatMap((t) =>
      t.afterCommit
        ? envs.map((env) => t.afterCommit!(JSON.stringify(env)).catch((err: unknown) => this.opts.log.warn({ err, transport: t.name, event: env.name }, 'event not sent to other instances')))
        : [],
    );
    for (const env of envs) {
      this.remember(env.id);
      await this.dispatch(env);
    }
    await Promise.all(sent);
  }

  private receive(message: string, transport: string): void {
    let env: Envelope;
    try {
      const parsed = envelopeSchema.safeParse(JSON.parse(message));
      if (!parsed.success) throw new Error(parsed.error.message);
      env = parsed.data;
    } catch (err) {
      this.opts.log.warn({ err, transport }, 'an unreadable event was ignored');
      return;
    }
    if (env.origin === this.origin || this.seen.has(env.id)) return;
    const payload = APP_EVENTS[env.name].safeParse(env.payload);
    if (!payload.success) {
      this.opts.log.warn({ event: env.name, transport, issues: payload.error.issues }, 'an event with an invalid payload was ignored');
      return;
    }
    this.remember(env.id);
    void this.dispatch({ ...env, payload: payload.data });
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_CAP) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  private async dispatch(env: Envelope): Promise<void> {
    for (const h of this.handlers.get(env.name) ?? []) {
      try {
        await h(env.payload as AppEvent<AppEventName>);
      } catch (err) {
        this.opts.log.error({ err, event: env.name }, 'an event subscriber failed');
      }
    }
  }

  private resync(): void {
    for (const h of this.resyncHandlers) {
      Promise.resolve()
        .then(h)
        .catch((err: unknown) => this.opts.log.error({ err }, 'an event resync failed'));
    }
  }
}

/**
 * `events.transaction` when the app's bus is given; a plain transaction whose events go nowhere
 * otherwise (seeds and scripts, with no instance to tell).
 */
export function withEvents<T>(db: Db, events: EventBus | null | undefined, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  if (events) return events.transaction(db, work);
  return db.transaction((tx) => work(tx, async () => undefined));
}
