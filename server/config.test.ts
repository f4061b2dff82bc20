import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      PRODUCT_NAME: 'Crypto Terminal',
      MARKET_DATA: 'live',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_MAX: 10,
      AUTH_RATE_LIMIT_WINDOW_MS: 60_000,
      BODY_LIMIT: 1024 * 1024,
      TRUST_PROXY: false,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.JWT_SECRET).toBeUndefined();
  });

  it('reads and converts given values; empty strings count as unset', () => {
    const c = loadConfig({ PORT: '9000', MARKET_DATA: 'sim', DATABASE_URL: 'postgres://u:p@db:5432/ct', TRUST_PROXY: 'true', ADMIN_EMAIL: 'Boss@Example.COM', SENTRY_DSN: '' });
    expect(c.PORT).toBe(9000);
    expect(c.MARKET_DATA).toBe('sim');
    expect(c.DATABASE_URL).toBe('postgres://u:p@db:5432/ct');
    expect(c.TRUST_PROXY).toBe(true);
    expect(c.ADMIN_EMAIL).toBe('boss@example.com');
    expect(c.SENTRY_DSN).toBeUndefined();
  });

  it('names every bad variable, and never echoes secrets', () => {
    const problems = problemsOf({ PORT: 'eighty', MARKET_DATA: 'paper', DATABASE_URL: 'mysql://root:hunter2@db/x', JWT_SECRET: 'short', ADMIN_EMAIL: 'nope' });
    expect(problems).toHaveLength(5);
    expect(problems[0]).toBe('PORT: must be a whole number from 0 to 65535 (got "eighty")');
    expect(problems.find((p) => p.startsWith('MARKET_DATA:'))).toContain('"paper"');
    expect(problems.find((p) => p.startsWith('DATABASE_URL:'))).toBe('DATABASE_URL: must be a URL (postgres://user:password@host:5432/database)');
    expect(problems.find((p) => p.startsWith('JWT_SECRET:'))).toBe('JWT_SECRET: must be at least 32 characters');
    expect(problems.join('\n')).not.toMatch(/hunter2|short"/);
    expect(problems.find((p) => p.startsWith('ADMIN_EMAIL:'))).toBeDefined();
  });

  it('rejects out-of-range numbers', () => {
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT: must be a whole number from 0 to 65535 (got "70000")']);
    expect(problemsOf({ AUTH_RATE_LIMIT_MAX: '0' })[0]).toMatch(/^AUTH_RATE_LIMIT_MAX: /);
  });
});
