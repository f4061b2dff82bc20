// `npm start`: builds the SPA when dist/ is missing or stale, then runs the server (server/main.ts)
// in this same process through tsx, so signals reach it directly: no child to leave behind.
import { register } from 'tsx/esm/api';
import { buildSpa, hasSpaSource, isBuildFresh } from './build.mjs';

if (!hasSpaSource()) {
  console.warn('No index.html at the repository root: there is no web app to build, serving the API only.');
} else if (!isBuildFresh()) {
  const t0 = Date.now();
  console.log('Building the web app (dist/ is missing or older than the sources)...');
  try {
    await buildSpa();
  } catch (err) {
    console.error('Could not build the web app:', err instanceof Error ? err.message : err);
    process.exit(1);
  }
  console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

register();
await import('../server/main.ts');
