import type { ApiKeyPermissions } from '../../src/api/contracts/api-keys';
import type { ExchangeId } from '../../src/api/contracts/common';
import type { ExchangeEndpoints } from '../../src/api/contracts/config';
import type { TimeInForce } from '../../src/api/contracts/trading';
import type { MarketData } from './market';
import type { PrivateStreamDriver } from './private-stream';
import type { ExchangeProtocol } from './signed-request';
import type { Signing } from './signing';
import { TradeRefusedError, type ConnectorContext, type NewOrder, type TradingConnector } from './trading';
import type { ExchangeCredentials, ExchangeTransport } from './transport';

/**
 * One exchange as the rest of the server sees it (issue 23 §1): `<exchange>/index.ts` exports one, and
 * registry.ts lists them. Differences are data where they are data (error table, rate-limit rules,
 * capabilities, hosts) and hooks where they are code (signing, the answer's envelope, the connector).
 */

/** Where one order type goes and what the exchange calls it. */
export interface OrderRoute {
  /** The documented path the order is placed at. */
  path: string;
  /** The exchange's own name for the type (its `type` / `orderType` / `ordType` / `ordType` value). */
  wire: string;
}

/**
 * An exchange's batch placing endpoint (issue 25 §1): up to `Capabilities.batch.place` orders in one call to
 * `path`, of the types whose single route is `takes` (Binance and OKX batch plain orders only: their stops
 * live in an algo service without one).
 */
export interface BatchRoute {
  path: string;
  takes: string;
}

/** How a change reaches the exchange: one amend call that keeps the order's id, or a new order first, then a cancel. */
export type AmendMode = 'in-place' | 'replace';

/** What the connector really does on this exchange (registry.test.ts trades every claim on the simulator). */
export interface Capabilities {
  /** The order types `place` sends, each with its route; a type not listed is refused before it is sent. */
  orderTypes: Readonly<Partial<Record<NewOrder['type'], OrderRoute>>>;
  /** Amending a resting plain order, and a waiting conditional one. */
  amend: { plain: AmendMode; conditional: AmendMode };
  /**
   * Orders one call places or cancels (1: the connector sends each order on its own, no batch endpoint), the
   * batch placing endpoint when there is one (`placeAt`), and how cancel-all goes: one call per kind of order,
   * or each open order cancelled in turn.
   */
  batch: { place: number; cancel: number; cancelAll: 'one-call' | 'each-order'; placeAt?: BatchRoute };
  /** The margin modes `setMarginMode` sets and `symbolSettings` reads back. */
  marginModes: ReadonlyArray<'CROSS' | 'ISOLATED'>;
  /** Where the exchange keeps the margin mode: per symbol, for the whole account (Bybit's unified account), or per order (OKX `tdMode`). */
  marginModeScope: 'symbol' | 'account' | 'order';
  /** The position mode orders are sent in: one position per symbol (Binance one-way, Bybit `positionIdx` 0, OKX `net`, BitMEX). */
  positionMode: 'one-way';
  /** Long and short positions of one symbol side by side: never, in any connector. */
  hedge: false;
  timeInForce: readonly TimeInForce[];
  postOnly: boolean;
  /** The price conditional orders trigger on (SPEC: "when the last price crosses"). */
  triggerPrice: 'last';
}

/** The hosts of an exchange: the SPA's (`GET /v1/config`) and the one this server signs its calls to. */
export interface ExchangeHosts {
  /** The base URLs the SPA's market adapters use (proxied through this server when browsers cannot call them). */
  public: ExchangeEndpoints;
  /** The real REST host the server itself calls, with the headers every call needs (OKX demo: `x-simulated-trading`). */
  rest(testnet: boolean): { base: string; headers?: Record<string, string> };
  /** This server's fixed-host proxies for the SPA (DESIGN §5: no open proxy): id → host and the only public GET paths. */
  proxies?: Readonly<Record<string, { host: string; paths: readonly string[] }>>;
}

export type KeyPermissionsFetcher = (transport: ExchangeTransport, creds: ExchangeCredentials, now: number) => Promise<ApiKeyPermissions>;

export interface ExchangeDescriptor {
  id: ExchangeId;
  /** The display name (SPEC §3), as messages name the exchange. */
  name: string;
  hosts: ExchangeHosts;
  /** The signature's composition (REST and private-stream login), reproduced from the signing vectors. */
  signing: Signing;
  /** The signed request pipeline's hooks and data: `sign`, `read`, the error table and the rate-limit rules. */
  protocol: ExchangeProtocol;
  capabilities: Capabilities;
  /** The trading connector for a key's context. */
  connector(ctx: ConnectorContext): TradingConnector;
  /** The key's private stream (orders, fills, account signals). */
  privateStream: PrivateStreamDriver;
  /** What a key may do (one signed read-only call). */
  keyPermissions: KeyPermissionsFetcher;
  /** Its public market data: the candle request and parser, the instrument list's requests and parser. */
  market: MarketData;
}

/** What every connector does today, unless its exchange's capabilities say otherwise. */
const EVERY_CONNECTOR = {
  batch: { place: 1, cancel: 1 },
  marginModes: ['CROSS', 'ISOLATED'],
  positionMode: 'one-way',
  hedge: false,
  timeInForce: ['GTC', 'IOC', 'FOK'],
  postOnly: true,
  triggerPrice: 'last',
} as const;

/** An exchange's capabilities: its own (order types, amend, cancel-all, where the margin mode lives) over what every connector does. */
export function capabilities(
  own: Pick<Capabilities, 'orderTypes' | 'amend' | 'marginModeScope'> & { cancelAll: Capabilities['batch']['cancelAll']; placeBatch?: BatchRoute & { max: number } } & Partial<Omit<Capabilities, 'batch'>>,
): Capabilities {
  const { cancelAll, placeBatch, ...rest } = own;
  const place = placeBatch ? { place: placeBatch.max, placeAt: { path: placeBatch.path, takes: placeBatch.takes } } : {};
  return { ...EVERY_CONNECTOR, ...rest, batch: { ...EVERY_CONNECTOR.batch, ...place, cancelAll } };
}

/** Whether `capabilities`' batch endpoint takes an order of `type`. */
export function batchTakes(capabilities: Capabilities, type: NewOrder['type']): boolean {
  const at = capabilities.batch.placeAt;
  return at !== undefined && capabilities.orderTypes[type]?.path === at.takes;
}

/** Order types placed at one path: type → the exchange's name for it. */
export function routesAt(path: string, wires: Partial<Record<NewOrder['type'], string>>): Partial<Record<NewOrder['type'], OrderRoute>> {
  return Object.fromEntries(Object.entries(wires).map(([type, wire]) => [type, { path, wire }]));
}

/** Hosts the SPA and this server both reach directly (no proxy, no extra header): the server calls the SPA's REST roots. */
export function directHosts(pub: ExchangeEndpoints): ExchangeHosts {
  return { public: pub, rest: (testnet) => ({ base: testnet ? pub.restTestnet : pub.rest }) };
}

/** The route of an order type the exchange's capabilities list; a 422 naming the type when they do not. */
export function orderRoute(capabilities: Capabilities, exchange: ExchangeId, type: NewOrder['type']): OrderRoute {
  const route = capabilities.orderTypes[type];
  if (!route) throw new TradeRefusedError(exchange, '', `${type} orders are not supported here`, 'type');
  return route;
}
