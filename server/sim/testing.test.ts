import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, fixture, shapeOf } from './testing';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The fixture comparisons rely on shapeOf telling these apart.
describe('shapeOf (fixture shape signatures)', () => {
  it('distinguishes key order, key names and JSON types, and treats values as irrelevant', () => {
    expect(shapeOf({ a: 1, b: 'x' })).toEqual(shapeOf({ a: 2, b: 'y' }));
    expect(shapeOf({ a: 1, b: 'x' })).not.toEqual(shapeOf({ b: 'x', a: 1 }));
    expect(shapeOf({ a: 1 })).not.toEqual(shapeOf({ a: '1' }));
    expect(shapeOf({ a: null })).not.toEqual(shapeOf({ a: {} }));
    expect(shapeOf([[1, 'a'], [2, 'b']])).toEqual(shapeOf([[3, 'c']]));
    expect(shapeOf([1, '2'])).not.toEqual(shapeOf(['1', 2]));
  });
});

describe('exchange fixtures', () => {
  it('live in the repository, not beside it', () => {
    expect(path.relative(REPO, FIXTURES_DIR)).toBe(path.join('tests', 'fixtures', 'exchanges'));
  });

  it('a missing fixture throws when a test reads it, naming the file (it fails that test alone)', () => {
    expect(() => fixture('binance', 'does-not-exist.json')).toThrow(
      `cannot read exchange fixture ${path.join(FIXTURES_DIR, 'binance', 'does-not-exist.json')}: ENOENT`,
    );
  });

  it('a file that is not JSON throws, naming the file', () => {
    expect(() => fixture('.', 'README.md')).toThrow(`exchange fixture ${path.join(FIXTURES_DIR, 'README.md')} is not valid JSON`);
  });

  it.each(['binance', 'bybit', 'bitmex', 'okx'])('%s: _index.json gives the provenance of every file, and every file it lists exists', (exchange) => {
    const index = fixture<Array<{ file: string; provenance: string }>>(exchange, '_index.json');
    const files = readdirSync(path.join(FIXTURES_DIR, exchange)).filter((f) => f !== '_index.json');
    expect(index.map((e) => e.file).sort()).toEqual(files.sort());
    for (const e of index) expect(e.provenance, e.file).toBeTruthy();
    for (const f of files) expect(() => fixture(exchange, f), f).not.toThrow();
  });
});
