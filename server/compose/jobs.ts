import fp from 'fastify-plugin';
import { registerJobs, type JobsDeps } from '../services/jobs';

export interface JobsPluginOptions {
  /** Tests: the job runner's lease, cadences, instance name and clock. */
  tuning?: JobsDeps['tuning'];
}

/**
 * `jobs`: this instance's job runner (JOBS_ENABLED) — alert evaluators, managed brackets — over the
 * same hosts as the rest of the server (the simulator in sim mode, the live exchanges' mainnet
 * otherwise) and the trading room's connectors (one rate budget per key).
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app, opts) => {
    registerJobs(app, {
      instruments: (exchange, testnet = false) => app.exchangeInfo.instruments(exchange, testnet),
      connectors: app.trading.connectors,
      rest: app.marketSource.rest,
      open: app.marketSource.open,
      tuning: opts.tuning,
    });
  },
  { name: 'jobs', dependencies: ['core', 'events', 'simulator', 'exchange-info', 'trading'] },
);
