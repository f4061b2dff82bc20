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
      SIM_EXTRA_PAIRS: 0,
      ADDRESS_BUDGETS: true,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.JWT_SECRET).toBeUndefined();
  });

  it('reads ADDRESS_BUDGETS as true or false, and names anything else', () => {
    expect(loadConfig({ ADDRESS_BUDGETS: 'false' }).ADDRESS_BUDGETS).toBe(false);
    expect(problemsOf({ ADDRESS_BUDGETS: 'maybe' })).toEqual(['ADDRESS_BUDGETS: must be true or false (got "maybe")']);
  });

  it('bounds SIM_EXTRA_PAIRS (the bench universe) to 0–100 per exchange', () => {
    expect(loadConfig({ SIM_EXTRA_PAIRS: '30' }).SIM_EXTRA_PAIRS).toBe(30);
    expect(problemsOf({ SIM_EXTRA_PAIRS: '101' })).toEqual(['SIM_EXTRA_PAIRS: must be a whole number from 0 to 100 (got "101")']);
  });

  it('reads and converts given values; empty strings count as unset', () => {
    const c = loadConfig({ PORT: '9000', MARKET_DATA: 'sim', DATABASE_URL: 'postgres://u:p@db:5432/ct', TRUST_PROXY: 'true', ADMIN_EMAIL: 'Boss@Example.COM', SENTRY_DSN: '' });
    expect(c.PORT).toBe(9000);
    expect(c.MARKET_DATA).toBe('sim');
    expect(c.DATABASE_URL).toBe('postgres://u:p@db:5432/ct');
    expect(c.TRUST_PROXY).toBe(1); // one proxy hop: see the TRUST_PROXY test below
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

  it('reads TRUST_PROXY as off, a number of trusted hops (true = 1) or trusted proxy addresses', () => {
    const trust = (v: string) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;
    for (const off of ['', 'false', 'FALSE', '0', 'no', 'off']) expect(trust(off)).toBe(false);
    for (const one of ['true', 'yes', 'on', '1']) expect(trust(one)).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust(' 10.0.0.0/8, loopback ,fd00::1,192.168.1.10')).toBe('10.0.0.0/8,loopback,fd00::1,192.168.1.10');
    for (const bad of ['maybe', '10.0.0.0/33', '10.0.0.1/8/1', 'proxy.internal', '-1', '21']) {
      expect(problemsOf({ TRUST_PROXY: bad })[0], bad).toMatch(/^TRUST_PROXY: must be false, true \(one proxy\), a number of proxy hops, or the proxies' addresses/);
    }
  });

  it('has route and key-password limits with documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      SESSION_RATE_LIMIT_MAX: 120,
      SIM_CREDENTIALS_RATE_LIMIT_MAX: 30,
      KEY_PASSWORD_MAX_PER_KEY: 5,
      KEY_PASSWORD_MAX_PER_USER: 20,
      KEY_PASSWORD_WINDOW_MS: 15 * 60_000,
      KEY_UNLOCK_IDLE_MS: 30 * 60_000,
      KEY_UNLOCK_MAX_MS: 8 * 3_600_000,
      KEY_UNLOCK_REMEMBERED_MAX_MS: 30 * 86_400_000,
      AUTH_CHECK_HOLD_MS: 10_000,
    });
  });

  it('rejects out-of-range numbers', () => {
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT: must be a whole number from 0 to 65535 (got "70000")']);
    expect(problemsOf({ AUTH_RATE_LIMIT_MAX: '0' })[0]).toMatch(/^AUTH_RATE_LIMIT_MAX: /);
  });

  it('has database pool and timeout settings with defaults that answer within seconds', () => {
    expect(loadConfig({})).toMatchObject({
      DB_POOL_SIZE: 10,
      DB_CONNECT_TIMEOUT_MS: 3000,
      DB_STATEMENT_TIMEOUT_MS: 5000,
      DB_LOCK_TIMEOUT_MS: 2000,
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
      DB_HEALTH_TIMEOUT_MS: 1500,
    });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '30000', DB_LOCK_TIMEOUT_MS: '500', DB_POOL_SIZE: '25' })).toMatchObject({
      DB_STATEMENT_TIMEOUT_MS: 30_000,
      DB_LOCK_TIMEOUT_MS: 500,
      DB_POOL_SIZE: 25,
    });
    // 0 would mean "no timeout" to PostgreSQL: not allowed.
    expect(problemsOf({ DB_STATEMENT_TIMEOUT_MS: '0', DB_CONNECT_TIMEOUT_MS: 'soon', DB_POOL_SIZE: '0' }).map((p) => p.split(':')[0]).sort()).toEqual([
      'DB_CONNECT_TIMEOUT_MS',
      'DB_POOL_SIZE',
      'DB_STATEMENT_TIMEOUT_MS',
    ]);
  });
});
