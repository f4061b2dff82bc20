import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, fixture, fixtureIndex, fixtureText } from './fixtures';

describe('exchange fixtures for the market adapters', () => {
  it('are read from the repository (tests/fixtures/exchanges), not from beside it', () => {
    expect(FIXTURES_DIR).toBe(fileURLToPath(new URL('../../../../tests/fixtures/exchanges/', import.meta.url)));
    expect(fixtureIndex('okx').length).toBeGreaterThan(0);
  });

  it('a missing fixture throws when a test reads it, naming the file (it fails that test alone)', () => {
    const missing = `${FIXTURES_DIR}bybit/does-not-exist.json`;
    expect(() => fixtureText('bybit', 'does-not-exist.json')).toThrow(`cannot read exchange fixture ${missing}: ENOENT`);
    expect(() => fixture('bybit', 'does-not-exist.json')).toThrow(missing);
    expect(() => fixtureIndex('nope')).toThrow(`${FIXTURES_DIR}nope/_index.json`);
  });
});
