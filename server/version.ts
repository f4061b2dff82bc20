import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** `package.json` version plus the git short sha when run from a checkout, e.g. `0.1.0+3f2a9c1`. */
export function appVersion(): string {
  if (cached) return cached;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version?: string };
  let sha = process.env.APP_GIT_SHA ?? '';
  if (!sha) {
    try {
      sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
        .toString()
        .trim();
    } catch {
      sha = ''; // not a git checkout (e.g. a tarball): the version alone
    }
  }
  cached = sha ? `${pkg.version ?? '0.0.0'}+${sha}` : (pkg.version ?? '0.0.0');
  return cached;
}
