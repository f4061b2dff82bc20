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
  /** Set when running behind a reverse proxy so client IPs (rate limits) and https detection are right. */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.stringbool().default(false)),
  /** Attempts per client IP and auth route (signin, signup, forgot-password, ...) per window. */
  AUTH_RATE_LIMIT_MAX: intInRange(1, 1_000_000, 10),
  AUTH_RATE_LIMIT_WINDOW_MS: intInRange(100, 86_400_000, 60_000),
  /** Largest accepted request body, bytes. */
  BODY_LIMIT: intInRange(1024, 100 * 1024 * 1024, 1024 * 1024),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Never echoed back in error messages: they may carry passwords. */
const SECRET_VARS = new Set(['JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'SENTRY_DSN']);

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
  return { ...loadConfig({}), JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long', ...overrides };
}
