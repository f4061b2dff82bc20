import type { ExchangeId } from '../contracts/common';
import type { ContractCategory } from './types';

/** Quote currencies recognised when splitting a pair; longest first so `USDT` wins over `USD`. */
const QUOTES = ['USDT', 'USDC', 'USD'] as const;

/** `BTCUSDT` → {BTC, USDT}; `BTC-USD-SWAP` → {BTC, USD}. Undefined when no known quote ends the pair. */
export function splitPair(symbol: string): { base: string; quote: string } | undefined {
  const dashed = symbol.split('-');
  if (dashed.length >= 2) return { base: dashed[0]!, quote: dashed[1]! };
  for (const quote of QUOTES) {
    if (symbol.length > quote.length && symbol.endsWith(quote)) return { base: symbol.slice(0, -quote.length), quote };
  }
  return undefined;
}

/**
 * Our pair → OKX perpetual instId: `BTCUSDT` → `BTC-USDT-SWAP`, `BTCUSD` → `BTC-USD-SWAP` (inverse).
 * Anything already dashed is an OKX id and passes through.
 */
export function toOkxInstId(symbol: string): string {
  if (symbol.includes('-')) return symbol;
  const pair = splitPair(symbol);
  if (!pair) return symbol;
  return `${pair.base}-${pair.quote}-SWAP`;
}

/** OKX instId → our pair: `BTC-USDT-SWAP` → `BTCUSDT`; non-SWAP ids keep base+quote (`BTC-USDT` → `BTCUSDT`). */
export function fromOkxInstId(instId: string): string {
  const [base, quote] = instId.split('-');
  return base && quote ? `${base}${quote}` : instId;
}

/**
 * linear or inverse, from the symbol alone: inverse contracts are quoted in plain USD
 * (Bybit `BTCUSD`, `BTCUSDH25`; OKX `BTC-USD-SWAP`; BitMEX `XBTUSD`), linear ones in USDT/USDC.
 * Binance USDⓈ-M is linear only.
 */
export function inferCategory(exchange: ExchangeId, symbol: string): ContractCategory {
  if (exchange === 'binance') return 'linear';
  if (exchange === 'okx') return /^[A-Z0-9]+-USD-/.test(toOkxInstId(symbol)) ? 'inverse' : 'linear';
  // Bybit/BitMEX: ...USD, or an inverse future ...USD + month code + year (BTCUSDH25, XBTZ24 is bitmex's own).
  return /USD$|USD[FGHJKMNQUVXZ]\d{2}$/.test(symbol) ? 'inverse' : 'linear';
}
