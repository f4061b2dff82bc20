// `npm run bench:api [-- --quick]`: the API under load, on PGlite and on PostgreSQL.
// Starts the real server (server/main.ts) once per database as a child process, signs in, then for
// each scenario (authenticated reads and writes):
//  - offers rising fixed rates open-loop: one request every 1/rate s on keep-alive sockets, whatever
//    the answers do, latency measured from the moment the request was due (no coordinated omission).
//    autocannon's own fixed-rate mode is not used for this: it sends each connection's quota for the
//    second back to back at the start of the second, so its latencies measure a burst, not a rate.
//  - measures the most it serves closed-loop with autocannon (16 connections, no rate limit).
// Writes the section "API under load" of tests/bench/results.md.
// The budget (DESIGN §7): p99 < 20 ms for authenticated reads at 500 requests/s, on both databases.
//
//   --quick              4 s per step instead of 10
//   --drivers=pglite,postgres
//   --port=8141          first port (BENCH_API_PORT); the PostgreSQL run uses the next one
//   TEST_PG_ADMIN_URL    where the throw-away PostgreSQL database is created (default postgres://postgres@127.0.0.1:5432/postgres)
//
// Not a test: the numbers depend on the machine and on what else it is doing (the load average is printed).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchSignIn, startBenchServer } from './bench-server.mjs';
import { mergeResultSections } from './bench-workstation.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'tests', 'bench', 'results.md');
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const quick = args.quick === 'true';
const DURATION_S = quick ? 4 : 10;
const WARMUP_S = quick ? 3 : 5;
const drivers = (args.drivers ?? 'pglite,postgres').split(',').filter(Boolean);
const firstPort = Number(args.port ?? process.env.BENCH_API_PORT ?? 8141);
const PG_ADMIN = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BUDGET = { rate: 500, p99Ms: 20 };

/** The scenarios: what a signed-in SPA does most. Rates rise until the server can no longer keep up. */
const SCENARIOS = [
  { name: 'read: GET /v1/users/settings', kind: 'read', method: 'GET', path: '/v1/users/settings', rates: [250, 500, 1000, 2000] },
  { name: 'read: GET /v1/users/me', kind: 'read', method: 'GET', path: '/v1/users/me', rates: [500] },
  {
    name: 'write: PATCH /v1/users/settings',
    kind: 'write',
    method: 'PATCH',
    path: '/v1/users/settings',
    body: JSON.stringify({ riskOptions: [0.5, 1, 1.5, 2] }),
    rates: [100, 250, 500],
  },
];

async function createPgDatabase() {
  const name = `ct_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 5000 });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function startServer(driver, port) {
  const database = driver === 'postgres' ? await createPgDatabase() : null;
  return startBenchServer({ port, label: `${driver} server`, env: database ? { DATABASE_URL: database.url } : {}, onStop: () => database?.drop() });
}

const signIn = (base) => benchSignIn(base);

/** Open loop at `rate` requests/s for `duration` s; latency from each request's due time. */
async function paced(base, headers, scenario, rate, duration) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const url = new URL(`${base}${scenario.path}`);
  const allHeaders = { ...headers, ...(scenario.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(scenario.body) } : {}) };
  const total = Math.round(rate * duration);
  const interval = 1000 / rate;
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now() + 20;
  await new Promise((resolve) => {
    const finish = () => {
      if (++done === total) resolve();
    };
    const fire = (due) => {
      const req = http.request(url, { method: scenario.method, headers: allHeaders, agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
          finish();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        finish();
      });
      req.end(scenario.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) fire(start + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { achieved: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), max: latencies.at(-1) ?? NaN, non2xx, errors };
}

/** Closed loop: as many as 16 connections get answered (autocannon). */
async function saturate(base, headers, scenario, duration) {
  const r = await autocannon({
    url: `${base}${scenario.path}`,
    method: scenario.method,
    headers: { ...headers, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
    body: scenario.body,
    connections: 16,
    duration,
    timeout: 10,
  });
  return { achieved: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

async function benchDriver(driver, port) {
  console.log(`\n=== ${driver} ===`);
  const server = await startServer(driver, port);
  const rows = [];
  try {
    const headers = await signIn(server.base);
    for (const scenario of SCENARIOS) {
      await paced(server.base, headers, scenario, scenario.rates[0], WARMUP_S); // warm-up: JIT, pool, caches
      const steps = [...scenario.rates.map((rate) => ({ offered: rate })), { offered: 'max' }];
      for (const step of steps) {
        const r = step.offered === 'max' ? await saturate(server.base, headers, scenario, DURATION_S) : await paced(server.base, headers, scenario, step.offered, DURATION_S);
        const row = { driver, scenario: scenario.name, kind: scenario.kind, offered: step.offered, ...r };
        rows.push(row);
        console.log(`${scenario.name} @ ${step.offered}/s: ${fmt(row.achieved)} rps, p50 ${fmt(row.p50)} ms, p99 ${fmt(row.p99)} ms, max ${fmt(row.max)} ms, non-2xx ${row.non2xx}, errors ${row.errors}`);
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}

const started = new Date();
const loadStart = os.loadavg();
const all = [];
for (const [i, driver] of drivers.entries()) all.push(...(await benchDriver(driver, firstPort + i)));
const loadEnd = os.loadavg();
const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);

const verdicts = drivers.map((driver) => {
  const row = all.find((r) => r.driver === driver && r.kind === 'read' && r.offered === BUDGET.rate && r.scenario.includes('settings'));
  const met = row && row.p99 < BUDGET.p99Ms && row.non2xx === 0 && row.errors === 0 && row.achieved >= BUDGET.rate * 0.95;
  return `- **${driver}**: ${row ? `p99 ${fmt(row.p99)} ms at ${fmt(row.achieved)} rps` : 'not measured'} — budget ${met ? '**met**' : '**not met**'}`;
});

const table = [
  '| database | scenario | offered rps | achieved rps | p50 ms | p99 ms | max ms | non-2xx | errors |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ...all.map((r) => `| ${r.driver} | ${r.scenario} | ${r.offered === 'max' ? 'max (16 connections, autocannon)' : r.offered} | ${fmt(r.achieved)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.non2xx} | ${r.errors} |`),
].join('\n');

const section = `## API under load (real server)

Generated by \`npm run bench:api${quick ? ' -- --quick' : ''}\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${minutes} min; ${DURATION_S} s per step after a ${WARMUP_S} s warm-up.
Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average ${loadStart.map((l) => l.toFixed(1)).join(' / ')} at start and ${loadEnd.map((l) => l.toFixed(1)).join(' / ')} at the end; autocannon runs on the same cores as the server.
The server is \`server/main.ts\` as \`npm start\` runs it (no Redis, LOG_LEVEL=warn), signed in as an admin; every request carries the access token (each one checks the user, the session version and the refresh family in the database), writes also the XSRF cookie and header. Fixed rates are offered open-loop (one request every 1/rate s on keep-alive sockets; latency from the moment each request was due, so a stall counts for every request it delays); *max* is autocannon closed-loop with 16 connections.

**Budget (DESIGN §7): p99 < ${BUDGET.p99Ms} ms for authenticated reads at ${BUDGET.rate} requests/s.**
${verdicts.join('\n')}

${table}
`;

const merged = mergeResultSections(RESULTS, [section]);
writeFileSync(RESULTS, merged ?? `# Benchmarks\n\n${section}`);
console.log(`\n${verdicts.join('\n')}\nWrote ${path.relative(ROOT, RESULTS)}.`);
