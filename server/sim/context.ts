import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimHub } from './hub';
import type { SimMarket } from './market/market';

/** What every exchange's sim routes share. */
export interface SimContext {
  market: SimMarket;
  hub: SimHub;
  /** Binance's used-weight header counts every request as 1 (the product's test harness: `ADDRESS_BUDGETS=false`). */
  flatWeights?: boolean;
  /** Told every weight Binance's used-weight header counts (`npm run bench:jobs`: the address's minutes, public reads included). */
  onWeight?: (request: string, weight: number, minute: number, used: number) => void;
}

/** Fastify's parsed query as plain strings (a repeated key keeps its first value, as most servers do). */
export function queryOf(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const q = (req.query ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(q)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

/** Sends a JSON body with a status, bypassing any response schema (the sim speaks foreign formats). */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** A strict integer parser: the exchanges reject "12abc" and "1e3" for integer params. */
export function parseIntParam(v: string | undefined): number | undefined | null {
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d{1,20}$/.test(v)) return null;
  return Number(v);
}
