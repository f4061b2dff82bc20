/**
 * The paper exchange and the product compute PnL the same way (issue 22: one exact function per
 * contract kind). The engine works in integer ticks, steps and 1e-18 units (units.ts); the panels,
 * the chart lines and the server's limits use `pnlAt` of the shared contracts. For random positions
 * of each contract kind — linear (Binance BTCUSDT, OKX BTC-USDT-SWAP's 0.01 BTC contracts) and
 * inverse (BitMEX XBTUSD's 1 USD, OKX BTC-USD-SWAP's 100 USD contracts) — the engine's unrealised PnL
 * equals `pnlAt` to the last of its 12 digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abs, cmp, dec, sub } from '../../../../src/api/contracts/decimal';
import { pnlAt } from '../../../../src/api/contracts/risk';
import { formatFixed } from './decimal';
import { unrealised } from './margin';
import type { PositionState } from './state';
import { INVERSE, LINEAR } from './testing';
import type { InstrumentSpec } from './types';
import { Units } from './units';

const KINDS: Array<[string, InstrumentSpec]> = [
  ['binance BTCUSDT (linear, 1 BTC per unit)', LINEAR],
  ['okx BTC-USDT-SWAP (linear, 0.01 BTC contracts)', { ...LINEAR, symbol: 'BTC-USDT-SWAP', qtyStep: '0.01', minQty: '0.01', maxQty: '10000', contractSize: '0.01' }],
  ['bitmex XBTUSD (inverse, 1 USD contracts)', INVERSE],
  ['okx BTC-USD-SWAP (inverse, 100 USD contracts)', { ...INVERSE, symbol: 'BTC-USD-SWAP', tickSize: '0.1', qtyStep: '1', minQty: '1', maxQty: '100000', contractSize: '100' }],
];

describe('the paper exchange’s PnL is the shared pnlAt', () => {
  it.each(KINDS)('%s', (_, spec) => {
    const u = new Units(spec);
    const terms = { category: spec.category === 'inverse' ? ('inverse' as const) : ('linear' as const), contractSize: spec.contractSize };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 5_000n }),
        fc.bigInt({ min: 10_000n, max: 2_000_000n }),
        fc.bigInt({ min: 10_000n, max: 2_000_000n }),
        fc.boolean(),
        (steps, entryTicks, exitTicks, long) => {
          const position: PositionState = { symbol: spec.symbol, size: long ? steps : -steps, cost: u.value(steps, entryTicks), isolatedMargin: 0n, openFees: 0n, realised: 0n, updatedAt: 0 };
          const engine = formatFixed(unrealised(u, position, exitTicks), 18); // the mark in ticks, as the engine keeps it
          const shared = pnlAt({ terms, side: long ? 'BUY' : 'SELL', qty: u.qtyOf(steps), entry: u.priceOf(entryTicks), exit: u.priceOf(exitTicks), scale: 12 });
          // Linear: identical. Inverse: each side rounds once (the engine at 1e-18 per value, pnlAt at 1e-12).
          expect(cmp(abs(sub(dec(engine), dec(shared))), dec(spec.category === 'inverse' ? '0.000000000001' : '0'))).toBeLessThanOrEqual(0);
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });
});
