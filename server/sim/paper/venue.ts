import type { FastifyInstance } from 'fastify';
import type { SimHub } from '../hub';
import type { SimKeys } from '../private/keyring';
import type { EnginePolicy, PaperEngineOptions, Tape } from './engine';
import type { SimFaults } from './faults';
import type { VenueInstruments } from './instruments';
import type { PaperRuntime } from './runtime';

/**
 * What a venue (`paper/<exchange>/`) is given when the sim plugin mounts it inside the exchange's
 * private scope — once per network (`/sim/<exchange>` = MAINNET, `/sim/testnet/<exchange>` = TESTNET).
 * The fault hooks are already on that scope; the venue registers routes and stream handlers.
 */
export interface VenueContext {
  /** The exchange's engine + store + clock (shared by both networks: accounts are keyed by network). */
  runtime: PaperRuntime;
  network: 'MAINNET' | 'TESTNET';
  /** The market seed (account ids derive from it; API secrets do not). */
  seed: string;
  /** The minted keys' secrets (private/keyring.ts): the signature checks look keys up here. */
  keys: SimKeys;
  hub: SimHub;
  faults: SimFaults;
}

export type VenueRegistrar = (app: FastifyInstance, venue: VenueContext) => void;

/** A venue's economics as data (paper-economics.md): what its engine is configured with. */
export interface VenueEconomics {
  instruments: VenueInstruments;
  /** Maker and taker fee rates; the maintenance rate where an instrument has no tiers. */
  rates: { maker: string; taker: string; maintenance: string };
  policy: EnginePolicy;
  /** A new account: its wallets, default leverage, first order / fill id (default 1), ledger decimals (default 8). */
  account: { balances: Record<string, string>; leverage: number; firstId?: number; currencyDecimals?: Record<string, number> };
}

/** The engine options of a venue's economics on a tape (market orders at last ± one tick). */
export function engineOptionsOf(e: VenueEconomics): (tape: Tape) => PaperEngineOptions {
  return (tape) => ({
    tape,
    instrument: e.instruments.spec,
    economics: { makerRate: e.rates.maker, takerRate: e.rates.taker, maintenanceRate: e.rates.maintenance, brackets: e.instruments.brackets },
    policy: e.policy,
    startingBalances: e.account.balances,
    defaultLeverage: e.account.leverage,
    halfSpreadTicks: 1,
    ...(e.account.currencyDecimals ? { currencyDecimals: e.account.currencyDecimals } : {}),
    firstId: e.account.firstId ?? 1,
  });
}
