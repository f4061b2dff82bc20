import WebSocket from 'ws';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { LIVE_ENDPOINTS, liveRestBase } from '../../exchanges/endpoints';
import { EXCHANGES } from '../../exchanges/registry';
import type { OpenSocket, PrivateStreamDriver } from '../../exchanges/private-stream';
import { ExchangeClock, RateGate, type ConnectorContext, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import { ExchangeUnreachableError, httpTransport, type ExchangeCredentials, type ExchangeTransport, type FetchFn } from '../../exchanges/transport';
import { WeightPacer } from '../../exchanges/weight-pacer';

/** An in-process request to this server (app.inject) with a body, for the simulator's private endpoints. */
export type SimInject = (req: { method: string; url: string; headers: Record<string, string>; body?: string }) => Promise<{
  status: number;
  text: string;
  headers: Record<string, string>;
}>;

export interface TradingTransportOptions {
  mode: 'sim' | 'live';
  simInject?: SimInject;
  /** Sim mode: an in-process WebSocket to this server (`app.injectWS`). */
  simInjectWs?: (url: string, headers: Record<string, string>) => Promise<WebSocket>;
  /** Live mode: how to reach the hosts (tests pass a fake) and for how long (DESIGN: 504 within 10 s). */
  fetch?: FetchFn;
  timeoutMs?: number;
  /** Tests: the local clock the skew is measured from. */
  now?: () => number;
  /** `ADDRESS_BUDGETS`: pace the reads of a budget the exchange counts per address (default true). */
  addressBudgets?: boolean;
}

/**
 * The simulator's mount for a network (`/sim/<exchange>` MAINNET, `/sim/testnet/<exchange>` TESTNET:
 * separate accounts, DESIGN §3.5), with the headers the exchange's own testnet host wants (OKX demo's
 * `x-simulated-trading: 1`), as the descriptor states them.
 */
export function simBase(exchange: ExchangeId, network: Network): { base: string; headers: Record<string, string> } {
  const testnet = network === 'TESTNET';
  return { base: testnet ? `/sim/testnet/${exchange}` : `/sim/${exchange}`, headers: { ...EXCHANGES[exchange].hosts.rest(testnet).headers } };
}

/**
 * Makes connectors for stored keys: one clock per exchange and network (the skew is the host's, not
 * the key's), one rate gate per key and one per exchange and network for budgets the exchange counts per IP,
 * kept across calls; credentials live only in the connector.
 */
export class TradingConnectors {
  private readonly clocks = new Map<string, ExchangeClock>();
  private readonly gates = new Map<string, RateGate>();
  private readonly addressGates = new Map<string, RateGate>();
  private readonly addressPacers = new Map<string, WeightPacer>();
  private readonly prefs = new Map<string, Map<string, string>>();

  constructor(private readonly opts: TradingTransportOptions) {}

  transport(exchange: ExchangeId, network: Network): ExchangeTransport {
    if (this.opts.mode === 'sim') {
      const inject = this.opts.simInject;
      if (!inject) throw new Error('TradingConnectors: sim mode needs simInject');
      const { base, headers } = simBase(exchange, network);
      const timeoutMs = this.opts.timeoutMs ?? 10_000;
      // The same failure semantics as the live transport: no answer in time or a 5xx → unreachable.
      return async (req) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ExchangeUnreachableError(exchange, `no answer within ${timeoutMs / 1000} s`)), timeoutMs);
        });
        try {
          const res = await Promise.race([inject({ method: req.method, url: `${base}${req.path}`, headers: { ...headers, ...req.headers }, body: req.body }), timeout]);
          if (res.status >= 500) throw new ExchangeUnreachableError(exchange, `HTTP ${res.status}`);
          return { status: res.status, text: res.text, headers: res.headers };
        } finally {
          clearTimeout(timer);
        }
      };
    }
    const { base, headers } = liveRestBase(exchange, network === 'TESTNET');
    return httpTransport(exchange, base, { fetch: this.opts.fetch, timeoutMs: this.opts.timeoutMs ?? 10_000, headers });
  }

  /** What a connector (and the key's private stream) works with: transport, credentials, clock, rate gate, instruments. */
  context(key: { id: string; exchange: ExchangeId; network: Network }, creds: ExchangeCredentials, instruments: readonly TradingInstrument[]): ConnectorContext {
    const clockKey = `${key.exchange}:${key.network}`;
    let clock = this.clocks.get(clockKey);
    if (!clock) this.clocks.set(clockKey, (clock = new ExchangeClock(this.opts.now)));
    let gate = this.gates.get(key.id);
    if (!gate) this.gates.set(key.id, (gate = new RateGate(key.exchange, this.opts.now)));
    let addressGate = this.addressGates.get(clockKey);
    if (!addressGate) this.addressGates.set(clockKey, (addressGate = new RateGate(key.exchange, this.opts.now, 'address')));
    const pace = this.opts.addressBudgets === false ? undefined : EXCHANGES[key.exchange].protocol.rateLimits.pace;
    let addressPacer = this.addressPacers.get(clockKey);
    if (!addressPacer && pace) this.addressPacers.set(clockKey, (addressPacer = new WeightPacer(key.exchange, pace.readBudget, pace.windowMs, this.opts.now)));
    // Orders and positions name the exchange's symbol; fills in the one model name the product's.
    const bySymbol = new Map<string, TradingInstrument>();
    for (const i of instruments) {
      bySymbol.set(i.symbol, i);
      bySymbol.set(i.exchangeSymbol, i);
    }
    let prefs = this.prefs.get(key.id);
    if (!prefs) this.prefs.set(key.id, (prefs = new Map()));
    return { transport: this.transport(key.exchange, key.network), creds, clock, gate, addressGate, addressPacer, prefs, instrument: (s) => bySymbol.get(s) };
  }

  connector(exchange: ExchangeId, ctx: ConnectorContext): TradingConnector {
    return EXCHANGES[exchange].connector(ctx);
  }

  connect(key: { id: string; exchange: ExchangeId; network: Network }, creds: ExchangeCredentials, instruments: readonly TradingInstrument[]): TradingConnector {
    return this.connector(key.exchange, this.context(key, creds, instruments));
  }

  /** The exchange's private stream driver for a key. */
  driver(exchange: ExchangeId): PrivateStreamDriver {
    return EXCHANGES[exchange].privateStream;
  }

  /** Opens a WebSocket at an exchange-relative path: the simulator in-process, or the live host. */
  opener(exchange: ExchangeId, network: Network): OpenSocket {
    if (this.opts.mode === 'sim') {
      const injectWs = this.opts.simInjectWs;
      if (!injectWs) throw new Error('TradingConnectors: sim mode needs simInjectWs');
      const { base, headers } = simBase(exchange, network);
      return (path) => injectWs(`${base}${path}`, headers);
    }
    const endpoints = LIVE_ENDPOINTS[exchange];
    const root = network === 'TESTNET' ? endpoints.wsTestnet : endpoints.ws;
    return (path) =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`${root}${path}`, { handshakeTimeout: 10_000 });
        socket.once('open', () => resolve(socket));
        socket.once('error', reject);
      });
  }

  /** Whether this instance holds state for the key (its rate gate, its margin-mode choices). */
  holds(apiKeyId: string): boolean {
    return this.gates.has(apiKeyId) || this.prefs.has(apiKeyId);
  }

  /** A deleted key's gate goes with it. */
  forget(apiKeyId: string): void {
    this.gates.delete(apiKeyId);
    this.prefs.delete(apiKeyId);
  }
}

/** The exchange-info cache's instrument as the connectors take it: decimal strings, never floats. */
export function tradingInstrument(i: Instrument): TradingInstrument {
  return {
    symbol: i.symbol,
    exchangeSymbol: i.exchangeSymbol,
    base: i.base,
    quote: i.quote,
    settle: i.settle,
    category: i.category,
    tickSize: i.tickSize,
    stepSize: i.stepSize,
    minQty: i.minQty,
    maxQty: i.maxQty,
    contractValue: i.contractValue,
    ...(i.quanto ? { quanto: true } : {}),
    ...(i.limits ? { limits: i.limits } : {}),
  };
}
