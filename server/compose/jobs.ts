import fp from 'fastify-plugin';
import { registerJobs, type JobsDeps } from '../services/jobs';
import { KEY_DELETED_MESSAGE, stopGuardingKey } from '../services/jobs/managed-brackets';

export interface JobsPluginOptions {
  /** Tests: the job runner's lease, cadences, instance name and clock. */
  tuning?: JobsDeps['tuning'];
}

/**
 * `jobs`: this instance's job runner (JOBS_ENABLED) — alert evaluators, managed brackets — over the
 * same hosts as the rest of the server (the simulator in sim mode, the live exchanges' mainnet
 * otherwise) and the trading room's connectors (one rate budget per key). Subscribed to a key's
 * deletion (its brackets stop in the deleting transaction) and, with custody withdrawn, every
 * instance's runs of the key's jobs abort at once.
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app, opts) => {
    // On every instance, jobs or not: deleting a key stops its managed brackets in the same transaction.
    app.events.within('api-key.deleted', async (tx, { apiKeyId }) => {
      await stopGuardingKey(tx, apiKeyId, KEY_DELETED_MESSAGE);
    });
    const jobs = registerJobs(app, {
      instruments: (exchange, testnet = false) => app.exchangeInfo.instruments(exchange, testnet),
      connectors: app.trading.connectors,
      accounts: app.trading.accounts,
      rest: app.marketSource.rest,
      open: app.marketSource.open,
      tuning: opts.tuning,
    });
    // The pre-send checks read the last price from the feed's ticker streams when fresh (account-states.ts).
    if (jobs) {
      const { feed } = jobs;
      app.trading.accounts.usePrices({ watch: (exchange) => feed.watch(exchange, { onPrices: () => undefined }), lastPrice: (exchange, symbol, maxAgeMs) => feed.lastPrice(exchange, symbol, maxAgeMs) });
    }
    // Wherever a run of the key's jobs is held, it stops acting now, not at its next lease renewal.
    const stopRuns = ({ apiKeyId }: { apiKeyId: string }) => {
      jobs?.runner.abortWhere((job) => job.payload.apiKeyId === apiKeyId);
    };
    app.events.on('api-key.deleted', stopRuns);
    app.events.on('api-key.custody-withdrawn', stopRuns);
  },
  { name: 'jobs', dependencies: ['core', 'events', 'simulator', 'exchange-info', 'trading'] },
);
