import type { FastifyInstance } from 'fastify';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { FetchLike, RestBase } from '../exchange-info';
import { emailNotification } from '../notifications';
import type { OpenStreamSocket } from '../scanner/streams';
import { alertWatchHandler, ensureAlertJobs } from './alert-watch';
import type { AccountStates } from '../trading/account-states';
import type { TradingConnectors } from '../trading/connect';
import { bracketJobHandler, type BracketJobOptions } from './bracket-guard';
import { MarketFeed } from './market-feed';
import { TradeFeed } from './trade-feed';
import { JobRunner, type JobHandler } from './runner';

export interface JobsDeps {
  instruments: (exchange: ExchangeId, testnet?: boolean) => Promise<Instrument[]>;
  /** The trade routes' connectors (clocks and rate budgets shared with the users' own calls). */
  connectors: TradingConnectors;
  /** The keys' account states: the bracket guards run on their changes (issue 26 §2). */
  accounts?: AccountStates;
  rest: { fetch: FetchLike; base: RestBase };
  open: OpenStreamSocket;
  /** Tests: faster leases and refreshes, a fixed instance name, a market clock. */
  tuning?: {
    leaseMs?: number;
    tickMs?: number;
    refreshMs?: number;
    idleMs?: number;
    owner?: string;
    now?: () => number;
    bracketPollMs?: number;
    bracketIdleMs?: number;
    beforeBracketAction?: BracketJobOptions['beforeAction'];
    extraHandlers?: JobHandler[];
  };
}

export interface Jobs {
  runner: JobRunner;
  feed: MarketFeed;
  /** The pairs' public trade streams per exchange and network (the alert evaluators'). */
  trades: TradeFeed;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's job runner, market feed and trade feed (absent when JOBS_ENABLED is false). */
    jobs?: Jobs;
  }
}

/**
 * The server's job side (issue 13): one runner per instance (JOBS_ENABLED), one market feed per
 * exchange shared by every job, the pairs' trade streams per exchange and network, the alert evaluators. Started when the app is ready, stopped (leases
 * released) when it closes. Null when jobs are off on this instance.
 */
export function registerJobs(app: FastifyInstance, deps: JobsDeps): Jobs | null {
  if (!app.config.JOBS_ENABLED) return null;
  const t = deps.tuning ?? {};
  const feed = new MarketFeed({ instruments: (exchange) => deps.instruments(exchange, false), open: deps.open, now: t.now, log: app.log });
  const instruments = (exchange: ExchangeId, network: Network) => deps.instruments(exchange, network === 'TESTNET');
  // Each network's own public hosts (the simulator's /sim/testnet/<exchange> in sim mode), as the trade routes open them.
  const trades = new TradeFeed({ instruments, open: (exchange, network) => deps.connectors.opener(exchange, network), now: t.now, log: app.log });
  const smtp = Boolean(app.config.SMTP_URL);
  const handlers: JobHandler[] = [
    alertWatchHandler({
      db: app.db,
      trades,
      instruments,
      rest: deps.rest,
      refreshMs: t.refreshMs,
      idleMs: t.idleMs,
      now: t.now,
      log: app.log,
      events: app.events,
      onNotification: async (row) => {
        await emailNotification(app.db, app.mailer, row, { smtp, productName: app.config.PRODUCT_NAME, log: app.log });
      },
    }),
    bracketJobHandler({
      db: app.db,
      connectors: deps.connectors,
      instruments: (exchange, testnet) => deps.instruments(exchange, testnet),
      secret: app.config.SERVER_SECRET,
      feed,
      pollMs: t.bracketPollMs,
      accounts: deps.accounts,
      idleMs: t.bracketIdleMs,
      log: app.log,
      events: app.events,
      beforeAction: t.beforeBracketAction,
    }),
    ...(t.extraHandlers ?? []),
  ];
  const runner = new JobRunner({ db: app.db, handlers, leaseMs: t.leaseMs ?? app.config.JOB_LEASE_MS, maxJobs: app.config.JOBS_MAX_PER_INSTANCE, tickMs: t.tickMs, owner: t.owner, log: app.log });
  app.decorate('jobs', { runner, feed, trades });
  app.addHook('onReady', async () => {
    await ensureAlertJobs(app.db).catch((err: unknown) => app.log.warn({ err }, 'Could not check the alert jobs on start'));
    runner.start();
  });
  app.addHook('onClose', async () => {
    await runner.stop();
    feed.close();
    trades.close();
  });
  return { runner, feed, trades };
}
