import { isIP } from 'node:net';
import { z } from 'zod';
import { marketDataModeSchema } from '../src/api/contracts/config';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = (protocols: RegExp, hint: string) =>
  z.preprocess(emptyToUndefined, z.url({ protocol: protocols, error: `must be a URL (${hint})` }).optional());
const intInRange = (min: number, max: number, def: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(emptyToUndefined, z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error }).default(def));
};

/**
 * Every setting the server reads from the environment (DESIGN §1). A bad value stops the
 * server with a message naming the variable, never a half-configured start.
 */
export const configSchema = z.object({
  PORT: intInRange(0, 65535, 8080),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  /** When set, PostgreSQL instead of the embedded PGlite in DATA_DIR. */
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/, 'postgres://user:password@host:5432/database'),
  /** Signs access tokens and XSRF tokens; generated and kept in DATA_DIR when not given. */
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email('must be an email address').transform((e) => e.toLowerCase()).default('admin@crypto-terminal.local'),
  ),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
  PRODUCT_NAME: z.preprocess(emptyToUndefined, z.string().max(100).default('Crypto Terminal')),
  MARKET_DATA: z.preprocess(emptyToUndefined, marketDataModeSchema.default('live')),
  /**
   * MARKET_DATA=sim only, for `npm run bench:jobs`: this many synthetic perpetuals per exchange
   * (`SIMB001USDT` …, sim/market/catalogue.ts `setBenchPairs`) beside the catalogue's. 0: none.
   */
  SIM_EXTRA_PAIRS: intInRange(0, 100, 0),
  /**
   * Budgets the exchanges count per IP address (Binance's request weight, 2,400 a minute): this server paces the
   * reads of all its keys to 1,800 a minute (`WeightPacer`), and with MARKET_DATA=sim the simulator counts
   * Binance's documented weights. `false` in the test harness and the e2e server only: one test process makes
   * more reads a minute for its many users than any trader's server would, and is not the place to wait them out.
   */
  ADDRESS_BUDGETS: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('true')).transform((v) => v === 'true'),
  SENTRY_DSN: optionalUrl(/^https?$/, 'https://key@host/project'),
  SMTP_URL: optionalUrl(/^smtps?$/, 'smtp://user:password@host:587'),
  MAIL_FROM: optionalString,
  REDIS_URL: optionalUrl(/^rediss?$/, 'redis://host:6379'),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** The address users reach the app at; used in password-reset links (never the request's Host header). */
  PUBLIC_URL: optionalUrl(/^https?$/, 'https://terminal.example.com'),
  /**
   * Behind reverse proxies, which `X-Forwarded-For` entry is the client (rate limits count per client
   * IP) and whether https came in: `false`, a number of proxy hops (`true` = 1), or the proxies'
   * addresses (see `parseTrustProxy`).
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().optional()).transform(parseTrustProxy),
  /** Attempts per client IP and auth route (signin, signup, forgot-password, ...) per window. */
  AUTH_RATE_LIMIT_MAX: intInRange(1, 1_000_000, 10),
  AUTH_RATE_LIMIT_WINDOW_MS: intInRange(100, 86_400_000, 60_000),
  /** Token refreshes and sign-outs per client IP and route per AUTH_RATE_LIMIT_WINDOW_MS (no guessing, but database writes). */
  SESSION_RATE_LIMIT_MAX: intInRange(1, 1_000_000, 120),
  /** Simulator credentials per signed-in user per AUTH_RATE_LIMIT_WINDOW_MS (MARKET_DATA=sim only). */
  SIM_CREDENTIALS_RATE_LIMIT_MAX: intInRange(1, 1_000_000, 30),
  /** Wrong key passwords (X-Key-Password) per API key, and per user over all their keys, per window (services/key-password-limit.ts). */
  KEY_PASSWORD_MAX_PER_KEY: intInRange(1, 1_000_000, 5),
  KEY_PASSWORD_MAX_PER_USER: intInRange(1, 1_000_000, 20),
  KEY_PASSWORD_WINDOW_MS: intInRange(1000, 86_400_000, 15 * 60_000),
  /**
   * Unlocked keys kept in server memory per sign-in and key (services/trading/unlock-cache.ts): gone
   * after KEY_UNLOCK_IDLE_MS unused, and at most KEY_UNLOCK_MAX_MS after an unlock for the page only
   * (or one made by a trading call's own key password), KEY_UNLOCK_REMEMBERED_MAX_MS after one
   * remembered on the device (the sign-in's 30-day lifetime).
   */
  KEY_UNLOCK_IDLE_MS: intInRange(1000, 86_400_000, 30 * 60_000),
  KEY_UNLOCK_MAX_MS: intInRange(1000, 30 * 86_400_000, 8 * 3_600_000),
  KEY_UNLOCK_REMEMBERED_MAX_MS: intInRange(1000, 30 * 86_400_000, 30 * 86_400_000),
  /**
   * How long a sign-in found live is held in memory before `requireUser` checks the database again
   * (plugins/session-cache.ts); sign-out, password and role changes drop it at once on every instance. 0: never held.
   */
  AUTH_CHECK_HOLD_MS: intInRange(0, 60_000, 10_000),
  /**
   * Server-side jobs (issue 13: alert evaluation, managed brackets): `false` on an instance that
   * should only answer requests. Every instance with jobs on shares the work through the database.
   */
  JOBS_ENABLED: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], { error: 'must be true or false' }).default('true')).transform((v) => v === 'true'),
  /**
   * The key server-side jobs seal exchange credentials under (DESIGN §3.6, semi-auto brackets).
   * main.ts keeps a generated one in DATA_DIR when unset; several instances must share one.
   */
  SERVER_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** How long a job's holder may go silent before another instance takes the job over. */
  JOB_LEASE_MS: intInRange(2000, 600_000, 15_000),
  /**
   * Jobs one instance holds at once (a managed bracket is one; each exchange and network's alerts one). Past it
   * an instance claims nothing more, so the instances together must have room for every bracket: after a
   * crash the survivors take over only what fits (bench:jobs: 1,000 brackets on 3 instances).
   */
  JOBS_MAX_PER_INSTANCE: intInRange(1, 100_000, 2_000),
  /**
   * How often a key's account state (services/trading/account-state.ts) is read again over REST beside its
   * private stream (open orders, positions, balance): the slow reconcile of issue 26 §2.
   */
  ACCOUNT_SNAPSHOT_MS: intInRange(5000, 3_600_000, 60_000),
  /** Largest accepted request body, bytes. */
  BODY_LIMIT: intInRange(1024, 100 * 1024 * 1024, 1024 * 1024),
  /**
   * PostgreSQL only (db/client.ts): pool size (one route may hold half of it), and how long a
   * request may wait before it answers 503 with Retry-After instead of hanging.
   */
  DB_POOL_SIZE: intInRange(1, 1000, 10),
  DB_CONNECT_TIMEOUT_MS: intInRange(100, 600_000, 3000),
  DB_STATEMENT_TIMEOUT_MS: intInRange(100, 3_600_000, 5000),
  DB_LOCK_TIMEOUT_MS: intInRange(100, 3_600_000, 2000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: intInRange(1000, 3_600_000, 10_000),
  /** How long `GET /v1/health` waits for `select 1` before it reports the database down (both drivers). */
  DB_HEALTH_TIMEOUT_MS: intInRange(100, 60_000, 1500),
});

export type Config = z.infer<typeof configSchema>;

const TRUST_PROXY_ERROR =
  'must be false, true (one proxy), a number of proxy hops, or the proxies\' addresses (comma-separated IPs/CIDRs, loopback, linklocal, uniquelocal)';
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: `false` (default) trusts no header; `true` or a number N trusts the last N hops
 * (the address the nearest proxy appended to `X-Forwarded-For` is the client when N = 1, whatever
 * the client itself put in front of it); a list of addresses/CIDRs trusts only hops from those
 * (safer when the app port is reachable without the proxy). Fastify 5 ignores a plain number (it
 * cannot tell the proxy from a direct client), so app.ts passes `trustProxyOption(...)`.
 */
export function parseTrustProxy(raw: string | undefined, ctx: z.RefinementCtx): false | number | string {
  const v = raw?.trim().toLowerCase();
  if (v === undefined || ['false', 'no', 'off', '0'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  if (/^\d+$/.test(v) && Number(v) <= 20) return Number(v);
  const parts = v.split(',').map((p) => p.trim());
  const valid = parts.every((p) => {
    if (NAMED_RANGES.has(p)) return true;
    const [addr, bits, extra] = p.split('/');
    const family = isIP(addr);
    if (!family || extra !== undefined) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  if (!valid) {
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_ERROR });
    return z.NEVER;
  }
  return parts.join(',');
}

/** Fastify's `trustProxy` for a parsed TRUST_PROXY: a hop count becomes "trust the nearest N hops". */
export function trustProxyOption(v: Config['TRUST_PROXY']): false | string | ((address: string, hop: number) => boolean) {
  if (typeof v === 'number') return (_address, hop) => hop < v;
  return v;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Never echoed back in error messages: they may carry passwords. */
const SECRET_VARS = new Set(['SERVER_SECRET', 'JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'SENTRY_DSN']);

/** Reads the configuration from `env` (default `process.env`); throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(configSchema.shape)) input[key] = env[key];
  const parsed = configSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const given = input[name];
    return `${name}: ${issue.message}${given === undefined || SECRET_VARS.has(name) ? '' : ` (got "${given}")`}`;
  });
  throw new ConfigError(problems);
}

/** A full config for tests and tools: the defaults plus `overrides`. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Jobs stay off in tests unless a test turns them on (they open market streams).
  return { ...loadConfig({}), JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long', SERVER_SECRET: 'test-server-secret-at-least-32-characters-long', JOBS_ENABLED: false, ADDRESS_BUDGETS: false, ...overrides };
}
