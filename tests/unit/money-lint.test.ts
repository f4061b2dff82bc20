import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule of issue 22: in the trading paths money is exact — no `Number(`, `parseFloat`,
 * `toFixed` or unary `+` — while drawing code elsewhere may convert freely.
 */
const eslint = new ESLint({ cwd: process.cwd() });
const problems = async (code: string, filePath: string) => (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax');

describe('money lint rule', () => {
  it.each([
    ['src/panels/trading/example.ts', 'export const f = (q: string) => Number(q) * 2;'],
    ['src/panels/shared/trading/example.ts', 'export const f = (q: number) => q.toFixed(2);'],
    ['server/services/trading/example.ts', 'export const f = (q: string) => parseFloat(q);'],
    ['src/api/contracts/risk.ts', 'export const f = (q: number) => q.toFixed(2);'],
    ['src/panels/chart/trade-lines.ts', 'export const f = (q: string) => +q;'],
    ['server/services/jobs/bracket-guard.ts', 'export const f = (q: string) => Number.parseFloat(q);'],
  ])('refuses a float conversion in %s', async (file, code) => {
    const found = await problems(code, file);
    expect(found).toHaveLength(1);
    expect(found[0].message).toMatch(/^Money is exact here/);
  });

  it('lets the engine edge and other code convert', async () => {
    expect(await problems("import { dec, toNumber } from '../../api/contracts/decimal';\nexport const f = (q: string) => toNumber(dec(q));", 'src/panels/trading/example.ts')).toEqual([]);
    expect(await problems('export const f = (q: string) => Number(q);', 'src/panels/chart/drawing-example.ts')).toEqual([]);
    expect(await problems('export const f = (q: string) => Number(q);', 'src/panels/trading/example.test.ts')).toEqual([]);
  });
});
