// The real server for the API benches (bench-api.mjs, bench-trade.mjs): server/main.ts in a child process
// group on a throw-away data dir, and a sign-in the way the SPA does it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_ADMIN = { email: 'bench-admin@crypto-terminal.local', password: 'bench-admin-password-1' };

/**
 * Starts server/main.ts on `port` (PGlite in a temp dir unless `env.DATABASE_URL`), waits for /v1/config;
 * `stop()` kills the process group (tsx leaves nothing behind), removes the data dir, then runs `onStop`.
 */
export async function startBenchServer({ port, label = 'server', env: extra = {}, onStop }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-that-is-at-least-32-characters-long',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  Object.assign(env, extra);
  // BENCH_NODE_ARGS: extra node flags for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], { env, cwd: ROOT, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  const stop = async () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
    rmSync(dataDir, { recursive: true, force: true });
    await onStop?.();
  };
  const base = `http://127.0.0.1:${port}`;
  // BENCH_START_TIMEOUT_MS: a loaded machine may need longer than a minute to start the server.
  const startMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 60_000);
  const until = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${label} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/v1/config`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`the ${label} did not start within ${startMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, stop };
}

/** Signs in like the SPA: the XSRF cookie from a GET, then the header with it on every mutation. */
export async function benchSignIn(base, who = BENCH_ADMIN) {
  const config = await fetch(`${base}/v1/config`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(config.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error('no XSRF-TOKEN cookie from /v1/config');
  const res = await fetch(`${base}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': decodeURIComponent(xsrf) },
    body: JSON.stringify(who),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { accessToken } = await res.json();
  return { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': decodeURIComponent(xsrf), authorization: `Bearer ${accessToken}` };
}
