// `npm run soak:books [-- --seconds 600] [-- --url http://127.0.0.1:8080]`: the four exchanges'
// documented local-book procedures (server/sim/book-checkers.ts) against a running simulator on the
// real clock, then a summary table: updates checked, sequence gaps, checksum failures, book errors.
// Without --url it starts a standalone simulator in this process (seed 'soak'). Exit code 1 on any failure.
// Not a unit test: the default run lasts 10 minutes.
import { allCheckers } from '../server/sim/book-checkers';
import { startSim } from '../server/sim/testing';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
};

const seconds = Number(arg('seconds') ?? 600);
const url = arg('url');
const sim = url ? null : await startSim({ seed: 'soak', pushIntervalMs: 250 });
const http = url ?? sim!.base;
const ws = http.replace(/^http/, 'ws');

const checkers = allCheckers(http, ws);
await Promise.all(checkers.map((c) => c.start()));
console.log(`soak:books — ${checkers.length} local books against ${http} for ${seconds} s`);
const started = Date.now();
while (Date.now() - started < seconds * 1000) {
  await new Promise((r) => setTimeout(r, Math.min(10_000, seconds * 1000 - (Date.now() - started))));
  const done = Math.round((Date.now() - started) / 1000);
  console.log(`  ${done}s: ${checkers.map((c) => `${c.stats.exchange} ${c.stats.updates}`).join(', ')}`);
}
for (const c of checkers) c.close();
await sim?.close();

const rows = checkers.map((c) => c.stats);
const head = ['exchange', 'symbol', 'updates', 'gaps', 'checksum fails', 'book errors', 'resyncs'];
const table = [head, ...rows.map((s) => [s.exchange, s.symbol, String(s.updates), String(s.gaps), String(s.checksumFailures), String(s.bookErrors), String(s.resyncs)])];
const widths = head.map((_, i) => Math.max(...table.map((r) => r[i].length)));
for (const [k, r] of table.entries()) {
  console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  if (k === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
for (const s of rows) for (const n of s.notes) console.log(`  ${s.exchange}: ${n}`);
const failed = rows.some((s) => s.gaps || s.checksumFailures || s.bookErrors || s.updates === 0);
process.exit(failed ? 1 : 0);
