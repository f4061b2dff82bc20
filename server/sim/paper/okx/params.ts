import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sendJson } from '../../context';
import { header, simKeyGrants } from '../../private/credentials';
import { verifyOkxSigned } from '../../private/okx';
import type { AccountKey, InstrumentSpec, Refusal } from '../engine';
import type { VenueContext } from '../venue';

/**
 * An OKX error (okx.md §0, paper-economics.md §4). `sCode` set: a per-item failure, answered as OKX
 * does — `code: "1"`, `msg: "All operations failed"`, the reason in `data[0].sCode/sMsg` (HTTP 200).
 * Without it: a request-level error `{ code, msg, data: [] }` with `status`.
 */
export class OkxError extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly item?: Record<string, string>,
    readonly status = 200,
    /** Batch answers: every item's result (code "1" all failed, "2" some failed). */
    readonly items?: unknown[],
  ) {
    super(msg);
  }
}

export const paramError = (name: string) => new OkxError('51000', `Parameter ${name} error`);
export const missing = (name: string) => new OkxError('50014', `Parameter ${name} can not be empty.`);
/** A per-item refusal of an order operation. */
export const itemError = (sCode: string, sMsg: string, ids: Record<string, string> = {}) => new OkxError('1', 'All operations failed', { ...ids, sCode, sMsg });

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** A signed request's parameters: the JSON body of a POST (an object, or the first of an array) or the GET query. */
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
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'boolean') return String(v);
    throw paramError(name);
  }

  req(name: string): string {
    const v = this.opt(name);
    if (v === undefined) throw missing(name);
    return v;
  }

  decimal(name: string): string | undefined {
    const v = this.opt(name);
    if (v !== undefined && !DECIMAL.test(v)) throw paramError(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,16}$/.test(v)) throw paramError(name);
    return Number(v);
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw paramError(name);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw paramError(name);
    return v as T;
  }
}

export interface SignedCall {
  apiKey: string;
  params: Params;
  /** A POST body that is a JSON array (batch endpoints: cancel-algos). */
  items: Params[];
  account: AccountKey;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Demo trading is the production host plus `x-simulated-trading: 1` (trap 20): on `/sim/okx` the header
 * selects the TESTNET account; `/sim/testnet/okx` is TESTNET with or without it.
 */
export function networkOf(venue: VenueContext, req: FastifyRequest): 'MAINNET' | 'TESTNET' {
  return venue.network === 'TESTNET' || header(req.headers, 'x-simulated-trading') === '1' ? 'TESTNET' : 'MAINNET';
}

/**
 * A signed OKX endpoint: `verifyOkxSigned` over the raw body, then (for `trade`) the key's trade
 * permission (50120), then the handler; its value (an array) is sent as `{ code: "0", msg: "", data }`.
 */
export function signed(venue: VenueContext, handler: (call: SignedCall) => Promise<unknown[]>, opts: { trade?: boolean } = {}): RouteHandlerMethod {
  return async (req, reply) => {
    const fail = (e: OkxError) =>
      e.items ? sendJson(reply, 200, { code: e.code, msg: e.msg, data: e.items, inTime: '', outTime: '' }) : sendJson(reply, e.status, e.item ? { code: e.code, msg: e.msg, data: [{ clOrdId: '', ordId: '', tag: '', ts: String(venue.runtime.now()), ...e.item }], inTime: '', outTime: '' } : { code: e.code, msg: e.msg, data: [] });
    const body = typeof req.body === 'string' ? req.body : '';
    const check = verifyOkxSigned(req, req.method === 'GET' ? '' : body, { seed: venue.seed, now: () => venue.runtime.now() });
    if (!check.ok) return fail(new OkxError(check.code, check.msg, undefined, 401));
    if (opts.trade && !simKeyGrants(check.apiKey).trade) return fail(new OkxError('50120', 'Your API key does not have permission to use this endpoint.', undefined, 401));
    let values: Record<string, unknown> = {};
    let items: Params[] = [];
    if (req.method === 'GET') {
      for (const [k, v] of new URLSearchParams(req.url.split('?')[1] ?? '')) if (!(k in values)) values[k] = v;
    } else {
      let parsed: unknown;
      try {
        parsed = body.trim() === '' ? {} : JSON.parse(body);
      } catch {
        return fail(new OkxError('50002', 'JSON syntax error', undefined, 400));
      }
      if (Array.isArray(parsed)) {
        items = parsed.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null).map((x) => new Params(x));
        values = (parsed[0] as Record<string, unknown> | undefined) ?? {};
      } else if (typeof parsed === 'object' && parsed !== null) {
        values = parsed as Record<string, unknown>;
        items = [new Params(values)];
      } else {
        return fail(new OkxError('50002', 'JSON syntax error', undefined, 400));
      }
    }
    try {
      const account: AccountKey = { apiKey: check.apiKey, exchange: 'okx', network: networkOf(venue, req) };
      const data = await handler({ apiKey: check.apiKey, params: new Params(values), items, account, req, reply });
      return sendJson(reply, 200, { code: '0', msg: '', data });
    } catch (err) {
      if (err instanceof OkxError) return fail(err);
      throw err;
    }
  };
}

/** An instId the simulator trades (SWAP only: spot, futures and options are not simulated). */
export function instrumentOf(venue: VenueContext, instId: string | undefined): InstrumentSpec {
  if (instId === undefined) throw missing('instId');
  const spec = venue.runtime.engine.instrument(instId);
  if (!spec) throw itemError('51001', `Instrument ID ${instId} does not exist.`);
  return spec;
}

/** The engine's typed refusals as OKX's sCodes (paper-economics.md §4, the error-code pages). */
export function refusalError(r: Refusal, ids: Record<string, string> = {}): OkxError {
  const e = (code: string, msg: string) => itemError(code, msg, ids);
  switch (r.code) {
    case 'unknown-symbol':
    case 'no-market':
      return e('51001', 'Instrument ID does not exist.');
    case 'invalid-price':
    case 'invalid-price-tick':
      return e('51000', 'Parameter px error');
    case 'invalid-trigger':
    case 'invalid-trigger-tick':
      return e('51000', 'Parameter triggerPx error');
    case 'invalid-qty':
    case 'qty-step':
      return e('51121', 'Order quantity must be a multiple of the lot size.');
    case 'qty-below-min':
    case 'notional-below-min':
      return e('51020', 'Your order should meet or exceed the minimum order amount.');
    case 'qty-above-max':
      return e('51202', 'Market order amount exceeds the maximum amount.');
    case 'insufficient-margin':
      return e('51008', 'Order failed. Insufficient USDT margin in account');
    case 'reduce-only-rejected':
      return e('51169', "Order failed because you don't have any positions in this direction for this contract to reduce or close.");
    case 'post-only-would-take':
      return e('51000', 'The post-only order will take liquidity in taker orders');
    case 'would-immediately-trigger':
      return e('51280', 'SL trigger price must be less than the last price');
    case 'unknown-order':
    case 'order-closed':
      return e('51400', 'Order cancellation failed as the order has been filled, canceled or does not exist.');
    case 'order-not-amendable':
    case 'no-change':
      return e('51503', 'Order modification failed as the order has been filled, canceled or does not exist.');
    case 'duplicate-client-id':
      return e('51016', 'Duplicated client order ID');
    case 'leverage-out-of-range':
      return new OkxError('51000', 'Parameter lever error');
    case 'position-limit-exceeded':
      return e('51004', 'Order failed. The order amount exceeds the current tier limit for the maximum amount.');
    case 'margin-mode-unchanged':
    case 'open-orders-exist':
    case 'position-exists':
      return new OkxError('59000', 'Your settings failed as you have positions or open orders.');
    case 'invalid-order':
      return e('51000', `Parameter ${r.field ?? 'order'} error`);
  }
}
