import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sendJson } from '../context';
import type { SimExchange } from '../market/catalogue';
import { simKeyGrants } from '../private/credentials';
import type { AccountKey, PaperEngine } from './engine';
import { Params, VenueError, type ParamDialect } from './params';
import type { PaperRuntime } from './runtime';
import type { VenueContext } from './venue';

/** A request's parameters as the exchange reads them: one set, and (JSON array bodies) the batch items. */
export interface ParsedValues {
  values: Record<string, unknown>;
  items?: Array<Record<string, unknown>>;
}

/**
 * How one exchange signs and answers (configured once per venue in `<exchange>/params.ts`): the
 * signature check of `private/<exchange>.ts`, where its parameters come from, its success envelope.
 */
export interface SignedProtocol {
  exchange: SimExchange;
  dialect: ParamDialect;
  /** The signature check: the key (and, for Binance, its parameters), or the exchange's refusal. */
  verify(req: FastifyRequest, venue: VenueContext): Promise<VenueError | { apiKey: string; values?: Record<string, unknown> }>;
  /** The key may not trade. */
  denied(): VenueError;
  /** The parameters of a verified request (after the permission check), or the exchange's refusal. */
  parse(req: FastifyRequest): VenueError | ParsedValues;
  /** The handler's value in the exchange's success body. */
  ok(value: unknown, now: number): unknown;
  /** The account's network (OKX: a header selects demo trading); default the mount's. */
  network?(venue: VenueContext, req: FastifyRequest): AccountKey['network'];
}

/** What a signed route's handler is given. */
export interface SignedCall {
  venue: VenueContext;
  runtime: PaperRuntime;
  engine: PaperEngine;
  apiKey: string;
  params: Params;
  /** A POST body's items (OKX batch endpoints: a JSON array; a single object is one item). */
  items: Params[];
  account: AccountKey;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** One signed endpoint of a venue: `trade` needs the key's trading permission. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  trade?: boolean;
  handler(call: SignedCall): Promise<unknown>;
}

/** A route group: the routes of one concern (orders, positions, account, history…). */
export type RouteGroup = readonly Route[];

/** The raw body text (the venues keep bodies unparsed: their signatures cover the exact bytes). */
export const rawBody = (req: FastifyRequest): string => (typeof req.body === 'string' ? req.body : '');

/** A query string's parameters; a repeated one keeps its first value. */
export function queryValues(query: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(query)) if (!Object.hasOwn(values, k)) values[k] = v;
  return values;
}

/** Bodies stay raw text (JSON or anything else), parsed only after the signature check. */
export function keepRawBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

/**
 * A signed endpoint: the signature check, then (for `trade`) the key's permission, then the
 * parameters, then the handler; its value goes out in the exchange's success body, a thrown
 * VenueError as the exchange's error answer.
 */
export function signed(venue: VenueContext, protocol: SignedProtocol, route: Route): RouteHandlerMethod {
  const { runtime } = venue;
  const fail = (reply: FastifyReply, e: VenueError) => {
    const a = e.answer(runtime.now());
    return sendJson(reply, a.status, a.body);
  };
  return async (req, reply) => {
    const check = await protocol.verify(req, venue);
    if (check instanceof VenueError) return fail(reply, check);
    if (route.trade && !simKeyGrants(check.apiKey).trade) return fail(reply, protocol.denied());
    const parsed = check.values ? { values: check.values } : protocol.parse(req);
    if (parsed instanceof VenueError) return fail(reply, parsed);
    const params = new Params(parsed.values, protocol.dialect);
    const account: AccountKey = { apiKey: check.apiKey, exchange: protocol.exchange, network: protocol.network?.(venue, req) ?? venue.network };
    try {
      const items = (parsed.items ?? []).map((v) => params.child(v));
      const out = await route.handler({ venue, runtime, engine: runtime.engine, apiKey: check.apiKey, params, items, account, req, reply });
      return sendJson(reply, 200, protocol.ok(out, runtime.now()));
    } catch (err) {
      if (err instanceof VenueError) return fail(reply, err);
      throw err;
    }
  };
}

/** Registers a venue's route groups on its private scope. */
export function mountRoutes(app: FastifyInstance, venue: VenueContext, protocol: SignedProtocol, groups: readonly RouteGroup[]): void {
  for (const route of groups.flat()) app.route({ method: route.method, url: route.url, handler: signed(venue, protocol, route) });
}
