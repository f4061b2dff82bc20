import fp from 'fastify-plugin';
import type { FetchFn } from '../exchanges/transport';
import { apiKeyRoutes } from '../routes/v1/api-keys';
import { fundedUserRoutes } from '../routes/v1/funded-users';
import { tradeRoutes } from '../routes/v1/trade';
import { tradeAuditRoutes } from '../routes/v1/trade-audit';
import { tradeStreamRoutes } from '../routes/v1/trade-stream';
import { isFeatureEnabled } from '../services/feature-flags';
import { createKeyValidator, type InjectFn } from '../services/key-validation';
import { AccountStates } from '../services/trading/account-states';
import { TradingConnectors, type SimInject } from '../services/trading/connect';
import { FundedCache } from '../services/trading/funded-cache';
import { TradeStreamHub } from '../services/trading/stream-hub';
import { UnlockCache } from '../services/trading/unlock-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** The trading room's long-lived parts: the connectors (clocks, rate budgets), the keys' account states and the browser's account streams. */
    trading: { connectors: TradingConnectors; accounts: AccountStates; hub: TradeStreamHub };
    /** Keys unlocked per sign-in (DESIGN §3.2 "Unlocking"): filled by the unlock route and trading calls. */
    unlockCache: UnlockCache;
    /** Funded users' status and limits as the trade routes check them, dropped on `funded-user.changed`. */
    fundedCache: FundedCache;
  }
}

export interface ApiKeysOptions {
  /** Tests: how live-mode key checks reach the exchanges (default: global fetch to the real hosts). */
  fetch?: FetchFn;
  timeoutMs?: number;
  /** Tests: the unlock cache's clock (idle and hard bounds). */
  now?: () => number;
}

/**
 * `api-keys`: `/v1/api-keys` and the funded-user routes under `/v1/users`, with the key validator:
 * in simulator mode it signs requests to the simulator's private endpoints in-process (same bytes as
 * to a real exchange), in live mode to the exchanges' real hosts.
 */
export const apiKeysPlugin = fp<ApiKeysOptions>(
  async (app, opts) => {
    const sim = app.config.MARKET_DATA === 'sim';
    const inject: InjectFn = async (req) => {
      const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers });
      return { status: res.statusCode, text: res.body };
    };
    const validator = createKeyValidator(sim ? { mode: 'sim', inject } : { mode: 'live', fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    const { KEY_UNLOCK_IDLE_MS: idleMs, KEY_UNLOCK_MAX_MS: maxMs, KEY_UNLOCK_REMEMBERED_MAX_MS: rememberedMaxMs } = app.config;
    const unlocks = new UnlockCache({ idleMs, maxMs, rememberedMaxMs, now: opts.now });
    app.decorate('unlockCache', unlocks);
    // Every instance forgets an unlock the moment it must no longer be used (the events' README).
    app.events.on('api-key.locked', ({ familyId, apiKeyId }) => unlocks.lock(familyId, apiKeyId));
    app.events.on('api-key.deleted', ({ apiKeyId }) => unlocks.dropKey(apiKeyId));
    app.events.on('api-key.custody-withdrawn', ({ apiKeyId }) => unlocks.dropKey(apiKeyId));
    app.events.on('session.ended', ({ familyId }) => unlocks.dropSession(familyId));
    app.events.on('user.sessions-ended', ({ userId }) => unlocks.dropUser(userId));
    app.events.on('api-key.changed', ({ apiKeyId }) => unlocks.forgetRow(apiKeyId));
    // Missed events: nothing tells what was held wrongly, so forget it all (the next call unlocks again).
    app.events.onResync(() => unlocks.clear());
    app.addHook('onClose', async () => unlocks.clear());
    await app.register(apiKeyRoutes, { prefix: '/v1/api-keys', validator, simInject: sim ? inject : null });
    await app.register(fundedUserRoutes, { prefix: '/v1/users', validator });
  },
  { name: 'api-keys', dependencies: ['core', 'http', 'events', 'simulator'] },
);

export interface TradingOptions {
  /** Tests: how live-mode trading reaches the exchanges, and for how long. */
  fetch?: FetchFn;
  timeoutMs?: number;
  /** Tests: the account stream's reconnect back-off. */
  backoffMs?: (attempt: number) => number;
  /** Tests: how often a stream re-checks its session (sign-out closes it). */
  sessionCheckMs?: number;
  /** Tests: the account states' slow REST reconcile, signal gathering and idle time (account-states.ts). */
  accounts?: { snapshotMs?: number; refreshMs?: number; idleMs?: number };
}

/**
 * `trading`: `/v1/trade/{apiKeyId}/…` (the owner), `/v1/users/{userId}/trade/{apiKeyId}/…` (an admin,
 * DESIGN §3.2) and `/v1/trade/stream`, over one set of connectors (clocks and rate budgets kept across
 * calls) and one stream hub. A deleted key's streams end and its connector state goes, on every instance.
 */
export const tradingPlugin = fp<TradingOptions>(
  async (app, opts) => {
    const simInject: SimInject = async (req) => {
      const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.body === undefined ? {} : { payload: req.body }) });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = String(v);
      return { status: res.statusCode, text: res.body, headers };
    };
    const connectors = new TradingConnectors(
      app.marketSource.sim
        ? { mode: 'sim', simInject, simInjectWs: (url, headers) => app.injectWS(url, { headers }), timeoutMs: opts.timeoutMs, addressBudgets: app.config.ADDRESS_BUDGETS }
        : { mode: 'live', fetch: opts.fetch, timeoutMs: opts.timeoutMs, addressBudgets: app.config.ADDRESS_BUDGETS },
    );
    const { ACCOUNT_SNAPSHOT_MS } = app.config;
    const accounts = new AccountStates({ db: app.db, connectors, exchangeInfo: app.exchangeInfo, log: app.log, backoffMs: opts.backoffMs, snapshotMs: ACCOUNT_SNAPSHOT_MS, ...opts.accounts });
    const hub = new TradeStreamHub({ db: app.db, accounts });
    app.addHook('onClose', async () => hub.close());
    app.decorate('trading', { connectors, accounts, hub });
    // An unlocked key's account state opens with the unlock and is released when its last unlock ends.
    app.unlockCache.holdWith((row, creds) => accounts.hold(row, creds));
    // Custody withdrawn: its unlocks and guards go (their holds with them), and so does the last call's idle hold.
    app.events.on('api-key.custody-withdrawn', ({ apiKeyId }) => accounts.endIdle(apiKeyId));
    app.events.on('api-key.deleted', ({ apiKeyId }) => {
      hub.closeKey(apiKeyId);
      connectors.forget(apiKeyId);
    });
    app.events.onResync(() => hub.closeDeletedKeys());
    const funded = new FundedCache(app.db);
    app.decorate('fundedCache', funded);
    app.events.on('funded-user.changed', ({ userId }) => funded.drop(userId));
    app.events.onResync(() => funded.clear());

    await app.register(tradeStreamRoutes, { prefix: '/v1/trade', hub, sessionCheckMs: opts.sessionCheckMs });
    const common = {
      db: app.db,
      connectors,
      exchangeInfo: app.exchangeInfo,
      limiter: app.keyPasswordLimiter,
      unlocks: app.unlockCache,
      funded,
      accounts,
      isFlagEnabled: (key: Parameters<typeof isFeatureEnabled>[1]) => isFeatureEnabled(app.db, key),
    };
    await app.register(tradeRoutes, { prefix: '/v1/trade/:apiKeyId', ...common, asAdmin: false });
    await app.register(tradeRoutes, { prefix: '/v1/users/:userId/trade/:apiKeyId', ...common, asAdmin: true });
    // What admins did on funded users' keys (written by the admin plugin's audit hook) and each key's day.
    await app.register(tradeAuditRoutes, { prefix: '/v1/users' });
  },
  { name: 'trading', dependencies: ['core', 'http', 'events', 'simulator', 'exchange-info', 'api-keys'] },
);
