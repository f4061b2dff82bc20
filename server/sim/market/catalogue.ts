/**
 * The simulated symbol universe: ~20 perpetuals per exchange with the exchanges' own ids, tick
 * sizes, lot sizes and contract values. BTC rows copy the exchange fixtures (tests/fixtures/exchanges);
 * the rest are plausible real-world values (the sim never claims to mirror today's live specs).
 */

export const SIM_EXCHANGES = ['binance', 'bybit', 'bitmex', 'okx'] as const;
export type SimExchange = (typeof SIM_EXCHANGES)[number];

/** An underlying asset: where its price hovers, how wild it is, how much trades per minute (USD). */
export interface Asset {
  code: string;
  price: number;
  /** Annualised volatility of log returns. */
  vol: number;
  usdPerMinute: number;
}

export const ASSETS: Record<string, Asset> = Object.fromEntries(
  (
    [
      ['BTC', 67_000, 0.55, 9e6],
      ['ETH', 3_500, 0.7, 5e6],
      ['SOL', 150, 0.9, 2e6],
      ['XRP', 0.6, 0.85, 1e6],
      ['DOGE', 0.15, 1.0, 1e6],
      ['BNB', 580, 0.6, 5e5],
      ['ADA', 0.45, 0.85, 4e5],
      ['AVAX', 30, 0.95, 4e5],
      ['LINK', 15, 0.9, 4e5],
      ['DOT', 6.5, 0.85, 2e5],
      ['LTC', 80, 0.75, 3e5],
      ['TRX', 0.12, 0.5, 1e5],
      ['BCH', 400, 0.8, 3e5],
      ['NEAR', 5.5, 1.0, 3e5],
      ['APT', 8, 1.0, 2e5],
      ['ARB', 0.8, 1.0, 3e5],
      ['OP', 1.8, 1.0, 2e5],
      ['SUI', 1.2, 1.1, 5e5],
      ['PEPE', 0.000011, 1.2, 6e5],
      ['UNI', 8, 0.9, 2e5],
    ] as const
  ).map(([code, price, vol, usdPerMinute]) => [code, { code, price, vol, usdPerMinute }]),
);

export interface SimInstrument {
  exchange: SimExchange;
  /** The exchange's own id on the wire: BTCUSDT, XBTUSD, BTC-USDT-SWAP. */
  symbol: string;
  asset: string;
  /** Names as the exchange writes them (BitMEX: XBT, settle XBt / USDt). */
  base: string;
  quote: string;
  settle: string;
  category: 'linear' | 'inverse';
  /** Decimal strings exactly as the exchange prints them ("0.10", "0.5"). */
  tickSize: string;
  /** Order-size step in the exchange's order unit (base coin, USD, or contracts). */
  qtyStep: string;
  minQty: string;
  maxQty: string;
  maxMarketQty: string;
  /**
   * Linear: base coin per order unit (1 on binance/bybit, ctVal on okx, 1e-6 for BitMEX XBTUSDT).
   * Inverse: USD per contract (1 on bybit/BitMEX XBTUSD, 100 for okx BTC-USD-SWAP).
   */
  contractSize: number;
  /**
   * BitMEX quanto (ETHUSD): priced in `quote` (USD), margined and settled in `settle` (XBt) whatever
   * the base. `category` is `linear` and `contractSize` is the settle coin per contract per 1 quote
   * move (ETHUSD: multiplier 100 satoshi = 0.000001 XBT), so the paper engine's linear value
   * (qty × contractSize × price, in the settle currency) is exactly BitMEX's quanto value.
   */
  quanto?: true;
  /** Instrument price = asset price × this (1000PEPEUSDT quotes 1000 PEPE). */
  priceMultiplier: number;
  listedAt: number;
  maxLeverage: number;
  /** Share of the asset's traded USD that happens on this instrument. */
  activity: number;
}

type Row = [asset: string, tick: string, step: string, min: string, max: string, mkt: string, contract: number, listed: string, lev: number];

const EXCHANGE_ACTIVITY: Record<SimExchange, number> = { binance: 1, bybit: 0.5, okx: 0.4, bitmex: 0.03 };

function build(
  exchange: SimExchange,
  rows: Row[],
  naming: (asset: string) => { symbol: string; base: string; quote: string; settle: string; multiplier?: number },
  category: 'linear' | 'inverse',
  activity = 1,
): SimInstrument[] {
  return rows.map(([asset, tickSize, qtyStep, minQty, maxQty, maxMarketQty, contractSize, listed, maxLeverage]) => {
    const n = naming(asset);
    return {
      exchange,
      symbol: n.symbol,
      asset,
      base: n.base,
      quote: n.quote,
      settle: n.settle,
      category,
      tickSize,
      qtyStep,
      minQty,
      maxQty,
      maxMarketQty,
      contractSize,
      priceMultiplier: n.multiplier ?? 1,
      listedAt: Date.parse(listed),
      maxLeverage,
      activity: EXCHANGE_ACTIVITY[exchange] * activity,
    };
  });
}

const usdtName = (asset: string) =>
  asset === 'PEPE'
    ? { symbol: '1000PEPEUSDT', base: '1000PEPE', quote: 'USDT', settle: 'USDT', multiplier: 1000 }
    : { symbol: `${asset}USDT`, base: asset, quote: 'USDT', settle: 'USDT' };

const BINANCE: Row[] = [
  ['BTC', '0.10', '0.001', '0.001', '1000', '120', 1, '2019-09-25', 125],
  ['ETH', '0.01', '0.001', '0.001', '10000', '2000', 1, '2019-11-27', 100],
  ['SOL', '0.0100', '1', '1', '1000000', '5000', 1, '2020-09-14', 100],
  ['XRP', '0.0001', '0.1', '0.1', '10000000', '2000000', 1, '2020-01-06', 75],
  ['DOGE', '0.000010', '1', '1', '50000000', '30000000', 1, '2020-07-10', 75],
  ['BNB', '0.010', '0.01', '0.01', '100000', '2000', 1, '2020-02-10', 75],
  ['ADA', '0.00010', '1', '1', '10000000', '3000000', 1, '2020-01-31', 75],
  ['AVAX', '0.0010', '1', '1', '1000000', '5000', 1, '2020-09-23', 75],
  ['LINK', '0.001', '0.01', '0.01', '500000', '10000', 1, '2020-01-17', 75],
  ['DOT', '0.001', '0.1', '0.1', '1000000', '50000', 1, '2020-08-21', 75],
  ['LTC', '0.01', '0.001', '0.001', '100000', '5000', 1, '2020-01-09', 75],
  ['TRX', '0.00001', '1', '1', '10000000', '5000000', 1, '2020-01-15', 75],
  ['BCH', '0.01', '0.001', '0.001', '10000', '850', 1, '2019-12-20', 75],
  ['NEAR', '0.0010', '1', '1', '1000000', '150000', 1, '2020-10-15', 75],
  ['APT', '0.00010', '0.1', '0.1', '1000000', '100000', 1, '2022-10-19', 75],
  ['ARB', '0.0001', '0.1', '0.1', '10000000', '1000000', 1, '2023-03-23', 75],
  ['OP', '0.0001', '0.1', '0.1', '5000000', '500000', 1, '2022-06-01', 75],
  ['SUI', '0.0001', '0.1', '0.1', '5000000', '500000', 1, '2023-05-03', 75],
  ['PEPE', '0.0000001', '1', '1', '800000000', '150000000', 1, '2023-05-05', 50],
  ['UNI', '0.0010', '1', '1', '1000000', '50000', 1, '2020-09-18', 75],
];

const BYBIT_LINEAR: Row[] = [
  ['BTC', '0.10', '0.001', '0.001', '1190.000', '500.000', 1, '2020-03-30', 100],
  ['ETH', '0.01', '0.01', '0.01', '7240.00', '724.00', 1, '2021-03-15', 100],
  ['SOL', '0.010', '0.1', '0.1', '79770.0', '7977.0', 1, '2021-09-15', 75],
  ['XRP', '0.0001', '1', '1', '3068860', '306886', 1, '2021-05-13', 75],
  ['DOGE', '0.00001', '1', '1', '20300000', '2030000', 1, '2021-05-13', 75],
  ['BNB', '0.010', '0.01', '0.01', '5600.00', '560.00', 1, '2021-08-12', 75],
  ['ADA', '0.0001', '1', '1', '3588000', '358800', 1, '2021-05-13', 75],
  ['AVAX', '0.001', '0.1', '0.1', '60000.0', '6000.0', 1, '2021-09-23', 50],
  ['LINK', '0.001', '0.1', '0.1', '80000.0', '8000.0', 1, '2021-05-13', 50],
  ['DOT', '0.001', '0.1', '0.1', '168000.0', '16800.0', 1, '2021-05-13', 50],
  ['LTC', '0.01', '0.1', '0.1', '11800.0', '1180.0', 1, '2021-05-13', 50],
  ['TRX', '0.00001', '1', '1', '11500000', '1150000', 1, '2021-08-12', 50],
  ['BCH', '0.05', '0.01', '0.01', '2280.00', '228.00', 1, '2021-05-13', 50],
  ['NEAR', '0.001', '0.1', '0.1', '260000.0', '26000.0', 1, '2021-10-28', 50],
  ['APT', '0.0001', '0.01', '0.01', '160000.00', '16000.00', 1, '2022-10-19', 50],
  ['ARB', '0.0001', '0.1', '0.1', '1500000.0', '150000.0', 1, '2023-03-23', 50],
  ['OP', '0.0001', '0.1', '0.1', '660000.0', '66000.0', 1, '2022-06-01', 50],
  ['SUI', '0.0001', '10', '10', '920000', '92000', 1, '2023-05-03', 50],
  ['PEPE', '0.0000001', '100', '100', '1500000000', '150000000', 1, '2023-05-05', 50],
  ['UNI', '0.001', '0.1', '0.1', '130000.0', '13000.0', 1, '2021-09-16', 50],
];

/** Bybit inverse perpetuals: qty is USD, 1 contract = 1 USD (bybit.md §3). */
const BYBIT_INVERSE: Row[] = [
  ['BTC', '0.50', '1', '1', '1000000', '100000', 1, '2018-11-15', 100],
  ['ETH', '0.05', '1', '1', '1000000', '100000', 1, '2019-01-25', 50],
  ['XRP', '0.0001', '1', '1', '1000000', '100000', 1, '2019-01-25', 50],
  ['SOL', '0.010', '1', '1', '1000000', '100000', 1, '2021-12-01', 25],
  ['DOT', '0.001', '1', '1', '1000000', '100000', 1, '2021-12-01', 25],
  ['ADA', '0.0001', '1', '1', '1000000', '100000', 1, '2021-12-01', 25],
  ['LTC', '0.01', '1', '1', '1000000', '100000', 1, '2021-12-01', 25],
];

/** BitMEX: XBTUSD from the fixture (inverse, lot 100, tick 0.5); USDT-linear contracts are fractions of the base. */
const BITMEX_INVERSE: Row[] = [['BTC', '0.5', '100', '100', '10000000', '10000000', 1, '2016-05-04', 100]];
const BITMEX_LINEAR: Row[] = [
  ['BTC', '0.5', '1000', '1000', '1000000000', '1000000000', 1e-6, '2021-11-10', 100],
  ['ETH', '0.05', '1000', '1000', '1000000000', '1000000000', 1e-5, '2021-11-10', 100],
  ['SOL', '0.01', '1000', '1000', '1000000000', '1000000000', 1e-4, '2021-12-08', 50],
  ['XRP', '0.0001', '1000', '1000', '1000000000', '1000000000', 0.01, '2022-01-12', 50],
  ['DOGE', '0.00001', '1000', '1000', '1000000000', '1000000000', 0.1, '2022-01-12', 50],
  ['BNB', '0.01', '1000', '1000', '1000000000', '1000000000', 1e-4, '2022-01-12', 50],
  ['ADA', '0.0001', '1000', '1000', '1000000000', '1000000000', 0.01, '2022-01-12', 50],
  ['AVAX', '0.001', '1000', '1000', '1000000000', '1000000000', 1e-3, '2022-01-12', 50],
  ['LINK', '0.001', '1000', '1000', '1000000000', '1000000000', 1e-3, '2022-01-12', 50],
  ['DOT', '0.001', '1000', '1000', '1000000000', '1000000000', 1e-3, '2022-01-12', 50],
  ['LTC', '0.01', '1000', '1000', '1000000000', '1000000000', 1e-4, '2022-01-12', 50],
  ['TRX', '0.00001', '1000', '1000', '1000000000', '1000000000', 0.1, '2022-06-01', 50],
  ['BCH', '0.05', '1000', '1000', '1000000000', '1000000000', 1e-4, '2022-01-12', 50],
  ['NEAR', '0.001', '1000', '1000', '1000000000', '1000000000', 1e-3, '2022-06-01', 50],
  ['APT', '0.001', '1000', '1000', '1000000000', '1000000000', 1e-3, '2022-10-19', 50],
  ['ARB', '0.0001', '1000', '1000', '1000000000', '1000000000', 0.01, '2023-03-23', 50],
  ['OP', '0.0001', '1000', '1000', '1000000000', '1000000000', 0.01, '2022-06-01', 50],
  ['SUI', '0.0001', '1000', '1000', '1000000000', '1000000000', 0.01, '2023-05-03', 50],
  ['PEPE', '0.000000001', '1000', '1000', '1000000000', '1000000000', 1000, '2023-05-05', 25],
];
const bitmexBase = (asset: string) => (asset === 'BTC' ? 'XBT' : asset);
/**
 * BitMEX quanto perpetuals: USD-priced, XBt-settled; contract = 0.000001 XBT per 1 USD of price
 * (multiplier 100 satoshi). ETHUSD: tick 0.05, lot 1, initMargin 0.02 (50×), listed 2018-08-02.
 */
const BITMEX_QUANTO: Row[] = [['ETH', '0.05', '1', '1', '10000000', '10000000', 1e-6, '2018-08-02', 50]];

/** OKX SWAP: sizes are contracts of ctVal (BTC-USDT-SWAP ctVal 0.01 BTC; BTC-USD-SWAP ctVal 100 USD). */
const OKX_LINEAR: Row[] = [
  ['BTC', '0.1', '0.01', '0.01', '100000000', '12000', 0.01, '2019-11-12', 100],
  ['ETH', '0.01', '0.01', '0.01', '100000000', '20000', 0.1, '2019-11-12', 100],
  ['SOL', '0.01', '0.01', '0.01', '100000000', '20000', 1, '2021-07-15', 50],
  ['XRP', '0.0001', '0.01', '0.01', '100000000', '20000', 100, '2019-11-12', 75],
  ['DOGE', '0.00001', '0.01', '0.01', '100000000', '20000', 1000, '2021-01-28', 75],
  ['BNB', '0.01', '0.01', '0.01', '100000000', '20000', 0.01, '2022-01-25', 50],
  ['ADA', '0.00001', '0.1', '0.1', '100000000', '20000', 100, '2021-03-02', 75],
  ['AVAX', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2021-09-23', 50],
  ['LINK', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2020-01-15', 50],
  ['DOT', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2020-08-20', 50],
  ['LTC', '0.01', '0.01', '0.01', '100000000', '20000', 1, '2019-11-12', 75],
  ['TRX', '0.00001', '0.01', '0.01', '100000000', '20000', 1000, '2019-11-12', 50],
  ['BCH', '0.01', '0.01', '0.01', '100000000', '20000', 0.1, '2019-11-12', 75],
  ['NEAR', '0.001', '0.01', '0.01', '100000000', '20000', 10, '2021-10-21', 50],
  ['APT', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2022-10-19', 50],
  ['ARB', '0.0001', '0.01', '0.01', '100000000', '20000', 10, '2023-03-23', 50],
  ['OP', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2022-06-01', 50],
  ['SUI', '0.0001', '0.01', '0.01', '100000000', '20000', 1, '2023-05-03', 50],
  ['PEPE', '0.0000000001', '0.1', '0.1', '100000000', '20000', 10000000, '2023-05-05', 50],
  ['UNI', '0.001', '0.01', '0.01', '100000000', '20000', 1, '2020-09-17', 50],
];
const OKX_INVERSE: Row[] = [
  ['BTC', '0.1', '1', '1', '100000000', '12000', 100, '2018-12-10', 100],
  ['ETH', '0.01', '1', '1', '100000000', '20000', 10, '2018-12-10', 100],
  ['SOL', '0.01', '1', '1', '100000000', '20000', 10, '2021-07-15', 50],
  ['XRP', '0.0001', '1', '1', '100000000', '20000', 10, '2018-12-10', 75],
];

export const CATALOGUE: SimInstrument[] = [
  ...build('binance', BINANCE, usdtName, 'linear'),
  ...build('bybit', BYBIT_LINEAR, usdtName, 'linear'),
  ...build('bybit', BYBIT_INVERSE, (a) => ({ symbol: `${a}USD`, base: a, quote: 'USD', settle: a }), 'inverse', 0.2),
  ...build('bitmex', BITMEX_INVERSE, () => ({ symbol: 'XBTUSD', base: 'XBT', quote: 'USD', settle: 'XBt' }), 'inverse', 2),
  ...build('bitmex', BITMEX_QUANTO, (a) => ({ symbol: `${a}USD`, base: a, quote: 'USD', settle: 'XBt' }), 'linear', 1).map((i) => ({ ...i, quanto: true as const })),
  ...build('bitmex', BITMEX_LINEAR, (a) => ({ symbol: `${bitmexBase(a)}USDT`, base: bitmexBase(a), quote: 'USDT', settle: 'USDt' }), 'linear'),
  ...build('okx', OKX_LINEAR, (a) => ({ symbol: `${a}-USDT-SWAP`, base: a, quote: 'USDT', settle: 'USDT' }), 'linear'),
  ...build('okx', OKX_INVERSE, (a) => ({ symbol: `${a}-USD-SWAP`, base: a, quote: 'USD', settle: a }), 'inverse', 0.3),
];

const BY_KEY = new Map(CATALOGUE.map((i) => [`${i.exchange}:${i.symbol}`, i]));

/** Most synthetic bench pairs per exchange (`SIM_EXTRA_PAIRS`). */
export const BENCH_PAIRS_MAX = 100;
const BENCH_PREFIX = 'SIMB';
const benchAsset = (n: number) => `${BENCH_PREFIX}${String(n).padStart(3, '0')}`;
const isBench = (i: SimInstrument) => i.asset.startsWith(BENCH_PREFIX) && /^SIMB\d{3}$/.test(i.asset);

/**
 * The bench universe (`SIM_EXTRA_PAIRS`, `npm run bench:jobs`): `perExchange` synthetic USDT-linear
 * perpetuals on each exchange — `SIMB001USDT` … on binance, bybit and bitmex, `SIMB001-USDT-SWAP` on
 * okx — each with its own seeded asset path (a price from 5 to 500, volatility 0.9), listed and
 * streamed like the catalogue's own. Process-wide (the catalogue is a module constant): every call
 * replaces the previous bench pairs; 0 removes them (the default: none exist).
 */
export function setBenchPairs(perExchange: number): void {
  const n = Math.max(0, Math.min(BENCH_PAIRS_MAX, Math.floor(perExchange)));
  for (let i = CATALOGUE.length - 1; i >= 0; i--) if (isBench(CATALOGUE[i]!)) CATALOGUE.splice(i, 1);
  for (const code of Object.keys(ASSETS)) if (/^SIMB\d{3}$/.test(code)) delete ASSETS[code];
  for (const [key, inst] of BY_KEY) if (isBench(inst)) BY_KEY.delete(key);
  if (n === 0) return;
  const codes = Array.from({ length: n }, (_, k) => benchAsset(k + 1));
  codes.forEach((code, k) => (ASSETS[code] = { code, price: 5 + ((k * 37) % 100) * 5, vol: 0.9, usdPerMinute: 3e5 }));
  const row = (code: string, contract: number, step: string): Row => [code, '0.001', step, step, '10000000', '1000000', contract, '2024-01-01', 50];
  const added = [
    ...build('binance', codes.map((c) => row(c, 1, '0.1')), usdtName, 'linear'),
    ...build('bybit', codes.map((c) => row(c, 1, '0.1')), usdtName, 'linear'),
    ...build('bitmex', codes.map((c) => row(c, 0.01, '1000')), (a) => ({ symbol: `${a}USDT`, base: a, quote: 'USDT', settle: 'USDt' }), 'linear', 10),
    ...build('okx', codes.map((c) => row(c, 1, '0.01')), (a) => ({ symbol: `${a}-USDT-SWAP`, base: a, quote: 'USDT', settle: 'USDT' }), 'linear'),
  ];
  CATALOGUE.push(...added);
  for (const i of added) BY_KEY.set(`${i.exchange}:${i.symbol}`, i);
}

/** Symbols are case-insensitive on BitMEX (and we upper-case Binance's lower-case stream names). */
export function findInstrument(exchange: SimExchange, symbol: string): SimInstrument | undefined {
  return BY_KEY.get(`${exchange}:${symbol.toUpperCase()}`);
}

export function instrumentsOf(exchange: SimExchange, category?: 'linear' | 'inverse'): SimInstrument[] {
  return CATALOGUE.filter((i) => i.exchange === exchange && (!category || i.category === category));
}

/**
 * XBT's USD rate the market model assumes for quanto contracts' traded volume (decoration only: the
 * simulated flow is drawn in USD, a quanto contract's USD value needs XBT's price; the paper
 * exchange never uses this, its values and PnL are exact in XBT).
 */
export const QUANTO_XBT_USD = ASSETS.BTC.price;

/**
 * Base coin per contract for volume, open interest and notional: `contractSize` for linear (base per
 * contract) and inverse (USD per contract); a quanto contract is worth contractSize × price XBT, i.e.
 * contractSize × XBTUSD of the base coin (ETHUSD ≈ 0.000001 × 67,000 = 0.067 ETH).
 */
export const volumeContractSize = (i: SimInstrument): number => (i.quanto ? i.contractSize * QUANTO_XBT_USD : i.contractSize);

/** Number of decimals a decimal string shows ("0.10" → 2, "100" → 0). */
export function decimalsOf(s: string): number {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}
