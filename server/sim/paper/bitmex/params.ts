import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sendJson } from '../../context';
import { simKeyGrants } from '../../private/credentials';
import { verifyBitmexSigned } from '../../private/bitmex';
import type { AccountKey, InstrumentSpec, Refusal } from '../engine';
import type { VenueContext } from '../venue';

/** A BitMEX error: `{ error: { message, name } }` with its HTTP status (bitmex.md §0). */
export class BitmexError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly name_ = 'HTTPError',
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new BitmexError(400, message);

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** A request's parameters: the query string merged with a JSON or form body (BitMEX accepts both). */
export class Params {
  constructor(readonly values: Record<string, unknown>) {}

  private raw(name: string): unknown {
    const v = this.values[name];
    return v === null || v === '' ? undefined : v;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  opt(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return numberText(v);
    if (typeof v === 'boolean') return String(v);
    throw invalid(`Invalid ${name}`);
  }

  decimal(name: string): string | undefined {
    const v = this.opt(name);
    if (v !== undefined && !DECIMAL.test(v)) throw invalid(`${name} is invalid`);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,12}$/.test(v)) throw invalid(`Invalid ${name}`);
    return Number(v);
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw invalid(`Invalid ${name}`);
  }

  /** A JSON-valued parameter (`filter`, `columns`): an object in a JSON body, or JSON text in a query. */
  json(name: string): Record<string, unknown> | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    if (typeof v !== 'string') throw invalid(`Invalid ${name}`);
    try {
      const parsed = JSON.parse(v) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw invalid(`Unable to parse ${name}: ${v.slice(0, 80)}`);
  }

  /** A string or an array of strings (`orderID` on cancel). */
  list(name: string): string[] | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (Array.isArray(v)) return v.map(String);
    if (typeof v === 'string') return v.startsWith('[') ? (JSON.parse(v) as unknown[]).map(String) : v.split(',');
    throw invalid(`Invalid ${name}`);
  }
}

/** A JS number from a JSON body as its decimal text, without exponent (1e-7 → "0.0000001"). */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(18).replace(/\.?0+$/, '');
}

export interface SignedCall {
  apiKey: string;
  params: Params;
  account: AccountKey;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A signed BitMEX endpoint: `verifyBitmexSigned` over the raw body, then (for `trade`) the key's
 * order permission (403), then the handler, whose value is the JSON answer.
 */
export function signed(venue: VenueContext, handler: (call: SignedCall) => Promise<unknown>, opts: { trade?: boolean } = {}): RouteHandlerMethod {
  return async (req, reply) => {
    const fail = (e: BitmexError) => sendJson(reply, e.status, { error: { message: e.message, name: e.name_ } });
    const body = typeof req.body === 'string' ? req.body : '';
    const check = verifyBitmexSigned(req, body, { seed: venue.seed, now: () => venue.runtime.now() });
    if (!check.ok) return fail(new BitmexError(check.status, check.message));
    if (opts.trade && !simKeyGrants(check.apiKey).trade) return fail(new BitmexError(403, 'Access Denied: this API key has no order permission.'));
    const values: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(req.url.split('?')[1] ?? '')) if (!(k in values)) values[k] = v;
    if (body.trim()) {
      const type = String(req.headers['content-type'] ?? '');
      if (type.includes('application/x-www-form-urlencoded')) {
        for (const [k, v] of new URLSearchParams(body)) values[k] = v;
      } else {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          return fail(invalid('Unable to parse request body as JSON.'));
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail(invalid('The request body must be a JSON object.'));
        Object.assign(values, parsed);
      }
    }
    try {
      const result = await handler({ apiKey: check.apiKey, params: new Params(values), account: { apiKey: check.apiKey, exchange: 'bitmex', network: venue.network }, req, reply });
      return sendJson(reply, 200, result);
    } catch (err) {
      if (err instanceof BitmexError) return fail(err);
      throw err;
    }
  };
}

export function instrumentOf(venue: VenueContext, symbol: string | undefined): InstrumentSpec {
  if (symbol === undefined) throw invalid("'symbol' is required");
  const spec = venue.runtime.engine.instrument(symbol);
  if (!spec) throw new BitmexError(404, `Instrument not listed for trading yet: ${symbol}`);
  return spec;
}

/** The engine's refusals as BitMEX's messages (paper-economics.md §3 errors). */
export function refusalError(r: Refusal, detail: { required?: string } = {}): BitmexError {
  switch (r.code) {
    case 'unknown-symbol':
    case 'no-market':
      return new BitmexError(404, 'Instrument not listed for trading yet');
    case 'invalid-price':
    case 'invalid-price-tick':
      return invalid('Invalid price tickSize');
    case 'invalid-trigger':
    case 'invalid-trigger-tick':
      return invalid('Invalid stopPx tickSize');
    case 'invalid-qty':
    case 'qty-step':
    case 'qty-below-min':
      return invalid('Invalid orderQty: must be a multiple of lotSize');
    case 'qty-above-max':
      return invalid('Invalid orderQty: exceeds maxOrderQty');
    case 'notional-below-min':
      return invalid('Order value is below the minimum');
    case 'insufficient-margin':
      return invalid(`Account has insufficient Available Balance${detail.required ? `, ${detail.required} required` : ''}`);
    case 'reduce-only-rejected':
      return invalid('Executing this order would increase your position, but it has execInst ReduceOnly');
    case 'post-only-would-take':
      return invalid('Canceled: Order had execInst of ParticipateDoNotInitiate');
    case 'would-immediately-trigger':
      return invalid('Invalid stopPx: it would trigger immediately');
    case 'unknown-order':
    case 'order-closed':
      return new BitmexError(404, 'Not Found');
    case 'order-not-amendable':
    case 'no-change':
      return invalid('Invalid amend: nothing to change');
    case 'duplicate-client-id':
      return invalid('Duplicate clOrdID');
    case 'leverage-out-of-range':
      return invalid('Invalid leverage');
    case 'position-limit-exceeded':
      return invalid('Position exceeds the risk limit');
    case 'margin-mode-unchanged':
    case 'open-orders-exist':
    case 'position-exists':
      return invalid('Cannot change the margin mode with open orders or a position');
    case 'invalid-order':
      return invalid(`Invalid ${r.field ?? 'order'}`);
  }
}
