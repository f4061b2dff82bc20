// `node scripts/build.mjs`: builds the SPA into dist/ with Vite and writes dist/.build-stamp, a hash
// of everything the build reads, so `npm start` can tell whether dist/ is stale (scripts/start.mjs).
// Every compressible file also gets a brotli (`.br`) and a gzip (`.gz`) twin, which the server sends
// to clients that accept them (server/plugins/web.ts, `preCompressed`).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

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

/** The files a build reads: src/ (without tests), public/, the root HTML entries, Vite config, the lockfile, this script. */
export function buildInputs() {
  const files = [];
  walk(path.join(ROOT, 'src'), files);
  walk(path.join(ROOT, 'public'), files);
  for (const name of readdirSync(ROOT)) {
    if (name.endsWith('.html') || name === 'vite.config.ts' || name === 'package-lock.json' || name === 'tsconfig.json') {
      if (statSync(path.join(ROOT, name)).isFile()) files.push(path.join(ROOT, name));
    }
  }
  // How dist/ is made (precompression included): a change here rebuilds it.
  files.push(path.join(ROOT, 'scripts', 'build.mjs'));
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

/** Served files worth compressing (source maps are never served: server/plugins/web.ts). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm|txt|xml)$/i;
/** Below this a compressed twin saves less than a packet. */
export const PRECOMPRESS_MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible file
 * of `dir` above PRECOMPRESS_MIN_BYTES; a twin that would not be smaller is not written (the server then
 * sends the file itself). Returns the bytes before and after, for the build's log line.
 */
export async function precompress(dir) {
  const files = [];
  walk(dir, files);
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = readFileSync(file);
    if (data.length < PRECOMPRESS_MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: /\.wasm$/i.test(file) ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files += 1;
    totals.raw += data.length;
    totals.br += Math.min(br.length, data.length);
    totals.gz += Math.min(gz.length, data.length);
    if (br.length < data.length) writeFileSync(`${file}.br`, br);
    if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
  }
  return totals;
}

export async function buildSpa() {
  const hash = inputsHash();
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  const sizes = await precompress(DIST);
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  console.log(`Precompressed ${sizes.files} files: ${kb(sizes.raw)} → ${kb(sizes.br)} brotli, ${kb(sizes.gz)} gzip`);
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
