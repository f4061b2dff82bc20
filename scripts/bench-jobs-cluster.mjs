// `npm run bench:jobs` (bench-jobs.mjs): the cluster — a throw-away PostgreSQL database, three real
// server/main.ts processes on it (+ Redis), their CPU and memory from /proc, and small HTTP helpers.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DB_NAME = 'bench_jobs';
export const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
export const ADMIN = { email: 'bench-jobs-admin@crypto-terminal.local', password: 'bench-jobs-admin-password-1' };
const JWT_SECRET = 'bench-jobs-jwt-secret-at-least-32-characters-long';
const SERVER_SECRET = 'bench-jobs-server-secret-at-least-32-characters';

/** Drops and creates the bench database (nobody else uses it: the name is the bench's own). */
export async function recreateDatabase() {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(`drop database if exists ${DB_NAME} with (force)`);
    await c.query(`create database ${DB_NAME}`);
  } finally {
    await c.end();
  }
}

export async function dropDatabase() {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(`drop database if exists ${DB_NAME} with (force)`);
  } finally {
    await c.end();
  }
}

/**
 * One server/main.ts process (node itself, so its pid is the server's: SIGKILL reaches the server, and
 * /proc/<pid> is its CPU and memory). `kill()` is `kill -9`; `stop()` a SIGTERM and wait.
 */
export async function startInstance({ port, env: extra }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-bench-jobs-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL,
    REDIS_URL: 'redis://127.0.0.1:6379',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET,
    SERVER_SECRET,
    MARKET_DATA: 'sim',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // The bench signs up its users and mints its keys from one address.
    AUTH_RATE_LIMIT_MAX: '1000000',
    SESSION_RATE_LIMIT_MAX: '1000000',
    SIM_CREDENTIALS_RATE_LIMIT_MAX: '1000000',
    ...extra,
  };
  // The server's JSON log (LOG_LEVEL=error unless BENCH_LOG_LEVEL) goes to a file beside its data dir, for a look after a failed run.
  const log = openSync(path.join(tmpdir(), `bench-jobs-${port}.log`), 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], { env, cwd: ROOT, stdio: ['ignore', log, 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise((r) => child.once('exit', r));
  const inst = {
    port,
    base,
    pid: child.pid,
    alive: true,
    kill() {
      inst.alive = false;
      process.kill(child.pid, 'SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        inst.alive = false;
        child.kill('SIGTERM');
        const t = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const until = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/v1/config`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await inst.stop();
      throw new Error(`the server on ${port} did not start in time`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return inst;
}

/** utime + stime (clock ticks → ms) and VmRSS (MB) of a process, from /proc. */
export function procStats(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // CLK_TCK = 100 on Linux
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuMs, rssMb: rss ? Number(rss[1]) / 1024 : NaN };
  } catch {
    return null;
  }
}

/** The sum over the live instances (CPU ms, RSS MB), and each one's by pid. */
export function clusterStats(instances) {
  let cpuMs = 0;
  let rssMb = 0;
  const byPid = {};
  for (const i of instances) {
    const s = i.alive ? procStats(i.pid) : null;
    if (s) {
      cpuMs += s.cpuMs;
      rssMb += s.rssMb;
      byPid[i.pid] = s;
    }
  }
  return { cpuMs, rssMb, byPid, at: Date.now() };
}

/** The XSRF pair every mutation carries (signed with JWT_SECRET: good on every instance). */
export async function xsrfHeaders(base) {
  const res = await fetch(`${base}/v1/config`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error('no XSRF-TOKEN cookie from /v1/config');
  return { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': decodeURIComponent(xsrf) };
}

/** JSON request; throws with the status and body on an error answer. */
export async function api(base, method, url, { headers = {}, body, token } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) {
    const err = new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
    err.status = res.status;
    // Seconds, as the server's 429 names them (a client waits that long before asking again).
    err.retryAfter = Number(res.headers.get('retry-after'));
    throw err;
  }
  return text ? JSON.parse(text) : null;
}

/** Runs `fn` over `items` with at most `n` at once. */
export async function pool(items, n, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const quantile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);
