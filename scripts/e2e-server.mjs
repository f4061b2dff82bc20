// The server Playwright runs (playwright.config.ts webServer): the built app in simulator mode on a
// fresh, throw-away PGlite data dir, with the e2e admin account and auth rate limits relaxed enough
// for a whole suite of sign-ins from one IP. PORT comes from the environment.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { buildSpa, hasSpaSource, isBuildFresh } from './build.mjs';

// `npm test` builds before Playwright; a direct `npx playwright test` may not have.
if (hasSpaSource() && !isBuildFresh()) {
  console.log('e2e server: building the web app first...');
  await buildSpa();
}

register();
const { E2E_ADMIN } = await import('../tests/e2e/env.ts');

// A server killed with SIGKILL cannot delete its data dir: sweep those left by servers that are gone
// (no live lock holder, older than a minute so a sibling still starting up is left alone).
for (const name of readdirSync(tmpdir())) {
  if (!name.startsWith('ct-e2e-')) continue;
  const dir = path.join(tmpdir(), name);
  try {
    if (Date.now() - statSync(dir).mtimeMs < 60_000) continue;
    const holder = Number.parseInt(readFileSync(path.join(dir, 'server.lock'), 'utf8'), 10);
    process.kill(holder, 0);
  } catch (err) {
    if (err.code === 'EPERM') continue; // a live process of another user
    rmSync(dir, { recursive: true, force: true });
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-e2e-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));

Object.assign(process.env, {
  DATA_DIR: dataDir,
  MARKET_DATA: 'sim',
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  HOST: process.env.HOST ?? '127.0.0.1',
  PORT: process.env.PORT ?? '8090',
  AUTH_RATE_LIMIT_MAX: process.env.AUTH_RATE_LIMIT_MAX ?? '1000',
  // Every e2e user reads through this one server (one address): Binance's per-address weight would throttle
  // the suite, not a trader. bench:jobs runs with it on.
  ADDRESS_BUDGETS: process.env.ADDRESS_BUDGETS ?? 'false',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? '8090'}`,
});
delete process.env.DATABASE_URL;
delete process.env.JWT_SECRET;
delete process.env.REDIS_URL;
delete process.env.SMTP_URL;

// If the test runner dies without stopping us (e.g. killed with SIGKILL), we are re-parented: stop
// too, rather than hold the port and the CPU for the next run.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 2000).unref();

await import('../server/main.ts');
