/**
 * The engine "before" a change, for `npm run bench -- --before=<git ref>`: scripts/bench.mjs
 * extracts src/engine at that ref (git archive) and the bench build aliases this module to it, so
 * the same run measures both engines. Without --before this stub is bundled and the lib is not used.
 */
import type { createChart as CreateChart } from '../../src/engine';

export const createChart: typeof CreateChart = () => {
  throw new Error('engine-before: run the bench with --before=<git ref>');
};
