import type { FastifyInstance } from 'fastify';
import type { SimHub } from '../hub';
import type { SimFaults } from './faults';
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
  /** The market seed: sim API secrets derive from it (private/credentials.ts). */
  seed: string;
  hub: SimHub;
  faults: SimFaults;
}

export type VenueRegistrar = (app: FastifyInstance, venue: VenueContext) => void;
