import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared exchange fixtures (`/work/shared/exchanges/fixtures`, beside the repository). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../../../shared/exchanges/fixtures/', import.meta.url));

export interface FixtureEntry {
  file: string;
  kind: string;
  endpoint: string;
  provenance: string;
}

export function fixtureIndex(exchange: string): FixtureEntry[] {
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${exchange}/_index.json`, 'utf8')) as FixtureEntry[];
}

export function fixtureText(exchange: string, file: string): string {
  return readFileSync(`${FIXTURES_DIR}${exchange}/${file}`, 'utf8');
}

export function fixture(exchange: string, file: string): unknown {
  return JSON.parse(fixtureText(exchange, file));
}
