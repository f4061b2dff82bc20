import type { DatabaseFailure } from './errors';
import { classifyDatabaseError } from './errors';

/** What the tracker logs through (a pino / Fastify logger fits). */
export interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface DatabaseCheck {
  state: 'ok' | 'down';
  /** Round trip of `select 1`, when it answered. */
  latencyMs?: number;
  /** Why it is down (public-safe: no host, no SQL). */
  reason?: string;
}

export interface DatabaseStatusOptions {
  log: OutageLog;
  /** One cheap round trip (`select 1`). */
  ping: () => Promise<unknown>;
  /** How long a ping may take before the database counts as down. */
  pingTimeoutMs: number;
  /** While down, how often to ping so the recovery is noticed without traffic. */
  probeIntervalMs?: number;
  /** At most one warn line per this period for statement/lock timeouts (the rest are counted). */
  contentionLogMs?: number;
  now?: () => number;
}

/** The fields a database log line may carry: the driver's code and message, never a query or parameters. */
const logged = (f: DatabaseFailure) => ({ code: f.code, reason: f.reason, message: f.message });

/** First line of an unclassified error's message, with any drizzle SQL/params cut off. */
const safeMessage = (err: unknown) => (err instanceof Error ? err.message.split(/\n|Failed query:|params:/)[0].trim().slice(0, 200) : 'error') || 'database query failed';

/**
 * The database's state as this instance sees it, and its log: one `warn` when it becomes
 * unavailable (with the reason), one `info` when it answers again, and only `debug` lines for the
 * requests that fail in between — an outage is one event, not a stack trace per request. While down
 * it pings every `probeIntervalMs`, so the server notices the recovery by itself.
 */
export class DatabaseStatus {
  private down: { since: number; failure: DatabaseFailure } | null = null;
  private inflight: Promise<DatabaseCheck> | null = null;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;
  private recoveredAt = -Infinity;
  private contention = { lastLogAt: -Infinity, suppressed: 0 };
  private readonly now: () => number;

  constructor(private readonly opts: DatabaseStatusOptions) {
    this.now = opts.now ?? Date.now;
  }

  get state(): 'ok' | 'down' {
    return this.down ? 'down' : 'ok';
  }

  /**
   * A call failed because the database is unreachable or silent. `startedAt` (when the failed
   * request began) keeps a request that was already stuck before a recovery from opening a new outage.
   */
  unavailable(failure: DatabaseFailure, log: OutageLog = this.opts.log, startedAt = this.now()): void {
    if (this.down || startedAt < this.recoveredAt) {
      log.debug({ db: logged(failure) }, 'database unavailable');
      return;
    }
    this.down = { since: this.now(), failure };
    this.opts.log.warn({ db: logged(failure) }, `database unavailable: ${failure.reason}`);
    this.startProbe();
  }

  /** A statement or lock wait ran out of time: contention, logged at most once per period with a count. */
  timedOut(failure: DatabaseFailure, log: OutageLog = this.opts.log): void {
    const now = this.now();
    if (this.down || now - this.contention.lastLogAt < (this.opts.contentionLogMs ?? 10_000)) {
      this.contention.suppressed++;
      log.debug({ db: logged(failure) }, 'database timeout');
      return;
    }
    const earlier = this.contention.suppressed;
    this.contention = { lastLogAt: now, suppressed: 0 };
    log.warn({ db: { ...logged(failure), ...(earlier ? { earlierTimeouts: earlier } : {}) } }, `database busy: ${failure.reason}`);
  }

  /** The database answered: ends an outage. */
  available(): void {
    if (!this.down) return;
    const { since, failure } = this.down;
    this.down = null;
    this.recoveredAt = this.now();
    this.stopProbe();
    this.opts.log.info({ db: { downForMs: this.now() - since, reason: failure.reason } }, 'database available again');
  }

  /**
   * Pings once (concurrent callers share the ping, so a burst of health checks is one query) and
   * updates the state. Never waits longer than `pingTimeoutMs`, even when the ping itself hangs.
   */
  check(): Promise<DatabaseCheck> {
    if (this.inflight) return this.inflight;
    const started = this.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<DatabaseCheck>((resolve) => {
      timer = setTimeout(() => resolve({ state: 'down', reason: `no answer within ${this.opts.pingTimeoutMs} ms` }), this.opts.pingTimeoutMs);
    });
    let failure: DatabaseFailure | undefined;
    const ping = Promise.resolve().then(() => this.opts.ping()).then(
      (): DatabaseCheck => ({ state: 'ok', latencyMs: this.now() - started }),
      (err: unknown): DatabaseCheck => {
        failure = classifyDatabaseError(err) ?? { kind: 'unavailable', reason: 'query failed', message: safeMessage(err) };
        return { state: 'down', reason: failure.reason };
      },
    );
    const result = Promise.race([ping, timeout]).then((check) => {
      clearTimeout(timer);
      if (this.closed) return check;
      if (check.state === 'ok') this.available();
      else this.unavailable(failure ?? { kind: 'unavailable', reason: check.reason ?? 'no answer', message: 'health check got no answer' });
      return check;
    });
    // A ping that answers after its timeout still proves the database is back.
    void ping.then((check) => {
      if (check.state === 'ok' && !this.closed) this.available();
    });
    // A hung ping stays the one in flight until it settles: no pile of pings on a frozen database.
    this.inflight = result;
    void ping.finally(() => {
      if (this.inflight === result) this.inflight = null;
    });
    return result;
  }

  close(): void {
    this.closed = true;
    this.stopProbe();
  }

  private startProbe(): void {
    if (this.probe || this.closed) return;
    this.probe = setInterval(() => void this.check(), this.opts.probeIntervalMs ?? 1000);
    this.probe.unref();
  }

  private stopProbe(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }
}
