// `npm test`: every suite, in the order that fails fastest. Each step runs even if an earlier one
// failed (so one run reports everything), and the exit code is non-zero if any step failed.
import { spawnSync } from 'node:child_process';

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
