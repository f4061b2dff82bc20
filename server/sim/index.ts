import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, onRequestAsyncHookHandler, RouteHandlerMethod } from 'fastify';
import type { Db } from '../db/client';
import { isInternalSimControlCall } from './control-auth';
import { registerBinanceRest } from './binance/rest';
import { registerBinanceWs } from './binance/ws';
import { registerBitmexRest } from './bitmex/rest';
import { registerBitmexWs } from './bitmex/ws';
import { registerBybitRest } from './bybit/rest';
import { registerBybitWs } from './bybit/ws';
import { queryOf, sendJson, type SimContext } from './context';
import { SimHub } from './hub';
import { restingFromOrders, setRestingOrderSource } from './market/book';
import { SIM_EXCHANGES, type SimExchange } from './market/catalogue';
import { SimMarket } from './market/market';
import { SimRequestCounter } from './request-counter';
import { setPrintSource } from './market/prints';
import { registerOkxRest } from './okx/rest';
import { registerOkxWs } from './okx/ws';
import { createPaper, FAULT_ANSWERS } from './paper';
import { registerPaperControl } from './paper/control';
import { PaperPrints } from './paper/prints';
import { PaperResting } from './paper/resting';
import { refuseHook } from './paper/faults';
import { registerExchangeFallbacks, registerSimFallback } from './not-found';
import { PRIVATE_REGISTRARS, SimKeyring } from './private';
import { registerCredentialsControl, rememberKeyring } from './private/control';

export interface SimPluginOptions {
  /** Binance's used-weight header counts every request as 1 instead of its documented weight (the test harness). */
  flatWeights?: boolean;
  /** Same seed → same market. Default 'crypto-terminal'. */
  seed?: string | number;
  /** The market clock in ms (inject a fake one in tests). Default Date.now. */
  now?: () => number;
  /** How often stream subscriptions are fed. Default 250 ms. */
  pushIntervalMs?: number;
  /** Binance's server ping frames. Default 3 minutes, like the real one. */
  binancePingIntervalMs?: number;
  /** An existing market to serve (shares caches with in-process users such as the exchange-info service). */
  market?: SimMarket;
  /**
   * Guards the control routes (`/_control/*`). The product passes "admin token required"
   * (compose/market.ts); the standalone simulator of the unit tests leaves them open. The server's own
   * in-process calls pass with `internalSimControlHeaders()` (control-auth.ts) whatever the guard.
   */
  controlGuard?: onRequestAsyncHookHandler;
  /**
   * Where the paper exchange keeps its accounts (the product passes its database). Without one, an
   * in-memory PGlite is opened on the first private request (the standalone test simulator).
   */
  db?: Db;
  /**
   * The key the simulator's API secrets are sealed under in the database (the product passes
   * SERVER_SECRET: instances sharing the database must share it). Without one, a random key of this
   * process: its keys work until it stops (the standalone test simulator).
   */
  sealingKey?: string;
}

/** `/sim/<exchange>` is the MAINNET paper account, `/sim/testnet/<exchange>` the TESTNET one (same market). */
const NETWORKS = [
  ['', 'MAINNET'],
  ['/testnet', 'TESTNET'],
] as const;

const registrars: Record<SimExchange, Array<(app: FastifyInstance, ctx: SimContext) => void>> = {
  binance: [registerBinanceRest, registerBinanceWs],
  bybit: [registerBybitRest, registerBybitWs],
  bitmex: [registerBitmexRest, registerBitmexWs],
  okx: [registerOkxRest, registerOkxWs],
};

/**
 * The market simulator as one Fastify plugin: register it with `{ prefix: '/sim' }` in an app that
 * has @fastify/websocket registered. See README.md beside this file.
 */
const simPlugin: FastifyPluginAsync<SimPluginOptions> = async (app, opts) => {
  const market = opts.market ?? new SimMarket({ seed: opts.seed, now: opts.now });
  const hub = new SimHub({
    now: market.now,
    pushIntervalMs: opts.pushIntervalMs ?? 250,
    pingFrameIntervalMs: (ex) => (ex === 'binance' ? (opts.binancePingIntervalMs ?? 180_000) : 0),
  });
  const ctx: SimContext = { market, hub, flatWeights: opts.flatWeights };
  app.addHook('onClose', async () => hub.close());
  // The simulator speaks the exchanges' formats, not this API's: keep it out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  const paper = createPaper({ market, db: opts.db, tickMs: opts.pushIntervalMs ?? 250 });
  // The public order books show the paper accounts' resting limit orders (market/book.ts), read-only: this
  // instance's loaded accounts from their engines, every other account (other instances') from the database.
  const resting = new PaperResting({ runtimes: paper.runtimes, db: opts.db, intervalMs: opts.pushIntervalMs ?? 250 });
  for (const exchange of paper.runtimes.keys()) {
    setRestingOrderSource(market, exchange, (symbol) => restingFromOrders(market, exchange, symbol, resting.orders(exchange, symbol)));
  }
  // Every paper fill (this instance's at once, other instances' read from the database) prints as a
  // public trade (market/prints.ts); the engines' tape stays the simulated one (paper/tape.ts).
  const prints = new PaperPrints({ market, runtimes: paper.runtimes.values(), db: opts.db, intervalMs: opts.pushIntervalMs ?? 250 });
  setPrintSource(market, prints);
  app.addHook('onClose', async () => {
    prints.close();
    setPrintSource(market, null);
  });
  // API keys are minted at random and kept sealed (private/keyring.ts): nothing follows from a key's name.
  const keys = new SimKeyring({ db: paper.db, sealingKey: opts.sealingKey ?? randomBytes(32).toString('hex') });
  rememberKeyring(app, keys);
  app.addHook('onClose', async () => {
    await keys.settled();
    await paper.close();
  });

  const requests = new SimRequestCounter();
  for (const [netPrefix, network] of NETWORKS) {
    for (const exchange of SIM_EXCHANGES) {
      await app.register(
        async (scope) => {
          // Binance's weight, per network (one address each), for the request counter.
          const scoped: SimContext = exchange === 'binance' ? { ...ctx, onWeight: (request, weight, minute, used) => requests.weigh(network, request, weight, minute, used) } : ctx;
          for (const register of registrars[exchange]) register(scope, scoped);
          registerExchangeFallbacks(scope, exchange, `${netPrefix}/${exchange}`);
          // Signed endpoints (private/README.md) and the paper venue, behind the fault hooks.
          await scope.register(async (priv) => {
            priv.addHook('onRequest', async (req) => requests.count(exchange, req));
            priv.addHook('onRequest', paper.faults.hook(exchange, FAULT_ANSWERS[exchange]));
            priv.addHook('preHandler', refuseHook(paper.faults, exchange, FAULT_ANSWERS[exchange]));
            PRIVATE_REGISTRARS[exchange](priv, { seed: market.seed, now: market.now, keys });
            const runtime = paper.runtimes.get(exchange);
            const venue = paper.venues[exchange];
            if (runtime && venue) venue(priv, { runtime, network, seed: market.seed, keys, hub, faults: paper.faults });
          });
        },
        { prefix: `${netPrefix}/${exchange}` },
      );
    }
  }

  const drop: RouteHandlerMethod = async (req, reply) => {
    const exchange = queryOf(req).exchange;
    if (exchange !== undefined && !(SIM_EXCHANGES as readonly string[]).includes(exchange)) {
      return sendJson(reply, 400, { message: `Unknown exchange ${exchange}; use one of ${SIM_EXCHANGES.join(', ')}` });
    }
    return sendJson(reply, 200, { dropped: hub.drop(exchange as SimExchange | undefined) });
  };
  const guard = opts.controlGuard;
  const onRequest: onRequestAsyncHookHandler = async function (req, reply) {
    if (!guard || isInternalSimControlCall(req.headers)) return;
    await guard.call(this, req, reply);
  };
  app.post('/_control/drop-sockets', { onRequest }, drop);
  app.get('/_control/drop-sockets', { onRequest }, drop);
  app.get('/_control/state', { onRequest }, async (_req, reply) => sendJson(reply, 200, { now: market.now(), seed: market.seed, sockets: hub.size }));
  app.get('/_control/requests', { onRequest }, async (_req, reply) => sendJson(reply, 200, requests.snapshot()));
  registerPaperControl(app, { onRequest, paper, hub });
  registerSimFallback(app);
  registerCredentialsControl(app, { onRequest, keys });
};

export default simPlugin;
export { SimMarket } from './market/market';
export { setBenchPairs } from './market/catalogue';
