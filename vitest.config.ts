import { appendFileSync, mkdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Errors thrown outside a test (a callback, a rejection nobody caught) fail the run: each is also written to
 * this file, which `npm test` repeats at the very end of its output (CI keeps only the tail).
 */
const UNHANDLED_LOG = 'test-results/unhandled-errors.log';

export default defineConfig({
  plugins: [react()],
  test: {
    onUnhandledError(error) {
      const e = error as Error & { type?: string; VITEST_TEST_PATH?: string; VITEST_TEST_NAME?: string };
      const where = [e.VITEST_TEST_PATH, e.VITEST_TEST_NAME].filter(Boolean).join(' › ');
      const stack = (e.stack ?? '').split('\n').slice(1, 6).map((l) => l.trim()).join(' | ');
      mkdirSync('test-results', { recursive: true });
      appendFileSync(UNHANDLED_LOG, `${e.type ?? 'Error'}: ${e.name}: ${String(e.message).slice(0, 300)}${where ? ` (during ${where})` : ''} at ${stack}\n`);
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['tests/harness/setup-dom.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
