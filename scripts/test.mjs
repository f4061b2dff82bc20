// `npm test`: every suite, in the order that fails fastest. Each step runs even if an earlier one
// failed (so one run reports everything), and the exit code is non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

const steps = [
  ['lint (import directions)', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit + server tests (PGlite and PostgreSQL)', 'npx', ['vitest', 'run']],
  ['build', 'node', ['scripts/build.mjs']],
  ['browser tests (Playwright, Chromium)', 'npx', ['playwright', 'test']],
];

const only = process.argv.slice(2);
const failed = [];
for (const [name, cmd, args] of steps) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  const t0 = Date.now();
  console.log(`\n=== ${name} ===`);
  if (name.startsWith('browser') && !existsSync(CHROMIUM)) {
    // Fail at once with the fix, rather than once per test (Playwright must never download its own browser).
    failed.push(name);
    console.log(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), or run .ci/run, which does.`);
    console.log(`=== ${name}: FAILED (browser missing) ===`);
    continue;
  }
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    failed.push(name);
    console.log(`=== ${name}: FAILED (${secs} s) ===`);
  } else {
    console.log(`=== ${name}: ok (${secs} s) ===`);
  }
}
if (failed.length) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nAll suites passed.');
