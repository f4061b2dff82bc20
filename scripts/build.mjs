// `node scripts/build.mjs`: builds the SPA into dist/ with Vite and writes dist/.build-stamp, a hash
// of everything the build reads, so `npm start` can tell whether dist/ is stale (scripts/start.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const STAMP = path.join(DIST, '.build-stamp');

const isTestFile = (name) => /\.(test|spec)\.tsx?$/.test(name);

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (!isTestFile(entry.name)) out.push(full);
  }
}

/** The files a build reads: src/ (without tests), public/, the root HTML entries, Vite config, the lockfile. */
export function buildInputs() {
  const files = [];
  walk(path.join(ROOT, 'src'), files);
  walk(path.join(ROOT, 'public'), files);
  for (const name of readdirSync(ROOT)) {
    if (name.endsWith('.html') || name === 'vite.config.ts' || name === 'package-lock.json' || name === 'tsconfig.json') {
      if (statSync(path.join(ROOT, name)).isFile()) files.push(path.join(ROOT, name));
    }
  }
  return files.sort();
}

export function inputsHash() {
  const hash = createHash('sha256');
  for (const file of buildInputs()) {
    hash.update(path.relative(ROOT, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** True when dist/ was built from exactly the current inputs. */
export function isBuildFresh() {
  if (!existsSync(path.join(DIST, 'index.html')) || !existsSync(STAMP)) return false;
  return readFileSync(STAMP, 'utf8').trim() === inputsHash();
}

/** There is an SPA to build (index.html at the root is Vite's entry). */
export const hasSpaSource = () => existsSync(path.join(ROOT, 'index.html'));

export async function buildSpa() {
  const hash = inputsHash();
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  // Written last: a failed or interrupted build leaves no stamp, so the next start builds again.
  writeFileSync(STAMP, `${hash}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = Date.now();
  try {
    await buildSpa();
    console.log(`Built the web app into dist/ in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error('Build failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
