// `npm test`: every suite, in the order that fails fastest. Each step runs even if an earlier one
// failed (so one run reports everything), and the exit code is non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
const VITEST_JSON = 'test-results/vitest.json';
/** Written by vitest.config.ts's onUnhandledError. */
const UNHANDLED_LOG = 'test-results/unhandled-errors.log';

const steps = [
  ['lint (import directions)', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  // The JSON report names the failed tests again at the very end: CI keeps only the tail of the output.
  ['unit + server tests (PGlite and PostgreSQL)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`]],
  ['build', 'node', ['scripts/build.mjs']],
  ['browser tests (Playwright, Chromium)', 'npx', ['playwright', 'test']],
];

/** The failed unit tests, a line each (file › test: the first line of its error), from vitest's JSON report. */
function failedUnitTests() {
  if (!existsSync(VITEST_JSON)) return ['(no report: vitest did not finish)'];
  const report = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
  const lines = [];
  for (const file of report.testResults ?? []) {
    const name = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (file.status === 'failed' && failed.length === 0) lines.push(`${name}: ${String(file.message ?? 'failed to run').split('\n')[0]}`);
    for (const t of failed) lines.push(`${name} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)}`);
  }
  // Errors thrown outside a test (vitest's "Unhandled Errors" section above): each, where vitest saw it.
  const unhandled = existsSync(UNHANDLED_LOG) ? readFileSync(UNHANDLED_LOG, 'utf8').split('\n').filter(Boolean) : [];
  for (const u of unhandled.slice(0, 20)) lines.push(`outside a test: ${u.slice(0, 700)}`);
  if (!lines.length) lines.push('no test failed: errors outside the tests (vitest\'s "Unhandled Errors" above: an exception in a callback, a rejection nobody caught)');
  return lines;
}

mkdirSync('test-results', { recursive: true });
rmSync(VITEST_JSON, { force: true });
rmSync(UNHANDLED_LOG, { force: true });
const only = process.argv.slice(2);
const failed = [];
/** Read right after the step (Playwright empties test-results/ when it starts). */
let unitFailures = [];
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
    if (name.startsWith('unit')) unitFailures = failedUnitTests();
    console.log(`=== ${name}: FAILED (${secs} s) ===`);
  } else {
    console.log(`=== ${name}: ok (${secs} s) ===`);
  }
}
if (unitFailures.length) {
  console.error('\nFailed unit + server tests:');
  for (const line of unitFailures) console.error(`  ✗ ${line}`);
}
if (failed.length) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nAll suites passed.');
