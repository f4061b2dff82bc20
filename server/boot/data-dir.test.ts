import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, readOrCreateSecret } from './data-dir';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'ct-datadir-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('refuses a second holder while the first lives, and frees the directory on release', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    // Simulate another live server: the lock names a running process that is not us (our parent).
    writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/Another server \(process \d+\) is already using the data directory/);
    writeFileSync(path.join(dir, 'server.lock'), String(process.pid));
    release();
    const again = lockDataDir(dir);
    again();
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'server.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});

describe('readOrCreateSecret', () => {
  it('generates a private secret once and returns the same one afterwards', () => {
    const dir = tempDir();
    const first = readOrCreateSecret(dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readOrCreateSecret(dir)).toBe(first);
    expect(statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });
});
