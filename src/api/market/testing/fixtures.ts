import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The exchange fixtures, in the repository (`tests/fixtures/exchanges/README.md` says where they come from). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../../tests/fixtures/exchanges/', import.meta.url));

export interface FixtureEntry {
  file: string;
  kind: string;
  endpoint: string;
  provenance: string;
}

/*
 * Call these inside a test, never at module load or in a `describe` body: a missing or broken file
 * then fails the one test that needs it, and the error names the file.
 */

export function fixtureText(exchange: string, file: string): string {
  const full = `${FIXTURES_DIR}${exchange}/${file}`;
  try {
    return readFileSync(full, 'utf8');
  } catch (cause) {
    throw new Error(`cannot read exchange fixture ${full}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, { cause });
  }
}

export function fixture(exchange: string, file: string): unknown {
  const text = fixtureText(exchange, file);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new Error(`exchange fixture ${FIXTURES_DIR}${exchange}/${file} is not valid JSON: ${String(cause)}`, { cause });
  }
}

/** The exchange's provenance index (`_index.json`): one entry per fixture file. */
export function fixtureIndex(exchange: string): FixtureEntry[] {
  return fixture(exchange, '_index.json') as FixtureEntry[];
}
