import { describe, expect, it } from 'vitest';
import { findInputProblem, JSON_MAX_DEPTH } from './input-guard';

const NUL = 'Must not contain NUL (\\u0000) characters';
const SURROGATE = 'Must be valid Unicode text (it contains an unpaired surrogate)';

describe('findInputProblem', () => {
  it('passes ordinary text, emoji (surrogate pairs) included', () => {
    expect(findInputProblem({ note: 'Back soon 🚀 — é漢字', list: ['a', 1, null, true], nested: { ok: '\t\n' } })).toBeNull();
  });

  it.each([
    [{ note: 'a\u0000b' }, 'note', NUL],
    [{ fills: [{ symbol: 'x' }, { symbol: '\u0000' }] }, 'fills.1.symbol', NUL],
    [{ a: '\ud800' }, 'a', SURROGATE],
    [{ a: 'x\udc00' }, 'a', SURROGATE],
    [{ a: '\udc00\ud800' }, 'a', SURROGATE],
    [{ model: { 'k\u0000': 1 } }, 'model.k\\u0000', NUL],
    [{ model: { '\ud83d': 1 } }, 'model.\\ud83d', SURROGATE],
    ['\u0000', '', NUL],
  ])('%j → %s', (value, path, reason) => {
    expect(findInputProblem(value)).toEqual({ path, reason });
  });

  it(`allows ${JSON_MAX_DEPTH} levels and names the field sent past that`, () => {
    const nest = (depth: number) => JSON.parse(`{"layout":{"model":${'{"a":'.repeat(depth - 2)}1${'}'.repeat(depth - 2)}}}`) as unknown;
    expect(findInputProblem(nest(JSON_MAX_DEPTH))).toBeNull();
    expect(findInputProblem(nest(JSON_MAX_DEPTH + 1))).toEqual({ path: 'layout.model', reason: `Nested too deeply: at most ${JSON_MAX_DEPTH} levels` });
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(findInputProblem(deep)?.reason).toMatch(/Nested too deeply/);
  });
});
