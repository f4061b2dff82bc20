import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './test/helper';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Run {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

/** Runs the real entry point the way `npm start` does after building (tsx in-process), in its own process group. */
function startServer(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

async function waitForUrl(run: Run, timeoutMs = 60_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const m = /is running at (http:\/\/[^\s]+)/.exec(run.out());
    if (m) return m[1].replace('localhost', '127.0.0.1');
    if (run.child.exitCode !== null) throw new Error(`server exited early:\n${run.out()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`server did not start:\n${run.out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running: Run[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const r of running) if (r.child.exitCode === null && r.child.pid) process.kill(-r.child.pid, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function signin(base: string, email: string, password: string): Promise<number> {
  const cookie = (await fetch(`${base}/v1/config`)).headers.get('set-cookie') ?? '';
  const token = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
  const res = await fetch(`${base}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

describe('server/main.ts (boot)', () => {
  it('stops with a message naming a bad variable', async () => {
    const run = startServer({ PORT: 'abc', MARKET_DATA: 'paper' });
    running.push(run);
    expect(await run.exited).toBe(1);
    expect(run.out()).toContain('PORT: must be a whole number from 0 to 65535 (got "abc")');
    expect(run.out()).toContain('MARKET_DATA:');
  }, 120_000); // a child process starts here (tsx compiles the server): room for a busy machine

  it('boots on a fresh DATA_DIR: admin with a printed password, /v1/config, /docs, one server per dir, clean stop, data kept', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-boot-'));
    dirs.push(dataDir);
    const first = startServer({ DATA_DIR: dataDir, MARKET_DATA: 'sim' });
    running.push(first);
    const base = await waitForUrl(first);
    const password = /Its password is: (\S+)/.exec(first.out())?.[1];
    expect(first.out()).toContain('Created the admin account admin@crypto-terminal.local.');
    expect(password).toBeTruthy();

    const config = await fetch(`${base}/v1/config`);
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({ productName: 'Crypto Terminal', marketData: 'sim' });
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
    expect(await signin(base, 'admin@crypto-terminal.local', password as string)).toBe(200);

    const second = startServer({ DATA_DIR: dataDir });
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.out()).toMatch(/Another server \(process \d+\) is already using the data directory/);
    expect((await fetch(`${base}/v1/config`)).status).toBe(200);

    process.kill(first.child.pid as number, 'SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    const again = startServer({ DATA_DIR: dataDir });
    running.push(again);
    const base2 = await waitForUrl(again);
    expect(again.out()).not.toContain('Created the admin account');
    expect(await signin(base2, 'admin@crypto-terminal.local', password as string)).toBe(200);
    process.kill(again.child.pid as number, 'SIGINT');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('runs on PostgreSQL with DATABASE_URL and the configured admin', async () => {
    const pg = await createPostgresDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-boot-pg-'));
    dirs.push(dataDir);
    try {
      const run = startServer({ DATA_DIR: dataDir, DATABASE_URL: pg.url, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'ops-password-1' });
      running.push(run);
      const base = await waitForUrl(run);
      expect(run.out()).toContain('database: PostgreSQL');
      expect(run.out()).not.toContain('Its password is');
      expect(await signin(base, 'ops@example.com', 'ops-password-1')).toBe(200);
      process.kill(run.child.pid as number, 'SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      await pg.drop();
    }
  }, 120_000);
});
