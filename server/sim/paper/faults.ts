import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SimExchange } from '../market/catalogue';

/** What `POST /sim/_control/faults` can do to one exchange's private (paper) endpoints. */
export interface FaultSpec {
  /** Added before every private answer. */
  latencyMs: number;
  /** Answer every private request with the exchange's own 5xx. */
  unavailable: boolean;
  /** Answer every private request with the exchange's own rate-limit error. */
  rateLimit: boolean;
  /** Drop the exchange's private sockets now and every new one while set (no close frame). */
  dropPrivateSockets: boolean;
  /**
   * Refuse, with the exchange's own validation error, every private POST / PUT (a placement, an
   * amend) whose URL or body contains one of these texts (a client order id: "this one leg is refused").
   * Reads and cancels pass: the order can still be looked up.
   */
  refuse: string[];
  /** Answer the exchange's own 5xx to private requests of this method whose path contains `path` (a cancel that fails). */
  failing: Array<{ method: string; path: string }>;
}

export const faultBodySchema = z
  .object({
    exchange: z.enum(['binance', 'bybit', 'bitmex', 'okx']).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    unavailable: z.boolean().optional(),
    rateLimit: z.boolean().optional(),
    dropPrivateSockets: z.boolean().optional(),
    refuse: z.array(z.string().min(1).max(64)).max(20).optional(),
    failing: z
      .array(z.object({ method: z.enum(['GET', 'POST', 'PUT', 'DELETE']), path: z.string().min(1).max(100) }).strict())
      .max(10)
      .optional(),
    /** Clears the exchange's faults (every exchange's when no exchange is named). */
    clear: z.boolean().optional(),
  })
  .strict();

/** A venue's own shapes for the injected failures (Binance: 503 / -1001 and 429 / -1003, …). */
export interface FaultAnswers {
  unavailable(): { status: number; body: unknown };
  rateLimited(): { status: number; body: unknown; headers?: Record<string, string> };
  /** A validation refusal of an order (a price the exchange will not take). */
  refused(): { status: number; body: unknown };
}

const NONE: FaultSpec = { latencyMs: 0, unavailable: false, rateLimit: false, dropPrivateSockets: false, refuse: [], failing: [] };

/** The fault settings of every exchange (test hooks; nothing is set unless a test asks). */
export class SimFaults {
  private readonly byExchange = new Map<SimExchange, FaultSpec>();

  get(exchange: SimExchange): FaultSpec {
    return this.byExchange.get(exchange) ?? NONE;
  }

  set(exchange: SimExchange, patch: Partial<FaultSpec>): FaultSpec {
    const next = { ...this.get(exchange), ...patch };
    this.byExchange.set(exchange, next);
    return next;
  }

  clear(exchange?: SimExchange): void {
    if (exchange) this.byExchange.delete(exchange);
    else this.byExchange.clear();
  }

  /** Whether `text` (a batch item: its client id, its parameters) names one of the exchange's `refuse` texts. */
  refuses(exchange: SimExchange, text: string): boolean {
    return this.get(exchange).refuse.some((r) => text.includes(r));
  }

  all(): Partial<Record<SimExchange, FaultSpec>> {
    return Object.fromEntries(this.byExchange);
  }

  /**
   * An onRequest hook for a venue's private scope: latency first, then the injected failure in the
   * exchange's own shape. Venue-agnostic, so every venue gets the faults by adding this one hook.
   */
  hook(exchange: SimExchange, answers: FaultAnswers) {
    return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const f = this.get(exchange);
      if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs));
      const send = async (a: { status: number; body: unknown }) => {
        await reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(a.body));
      };
      if (f.failing.some((x) => x.method === req.method && req.url.includes(x.path))) return send(answers.unavailable());
      if (f.unavailable) {
        const a = answers.unavailable();
        await reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(a.body));
        return;
      }
      if (f.rateLimit) {
        const a = answers.rateLimited();
        for (const [k, v] of Object.entries(a.headers ?? {})) reply.header(k, v);
        await reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(a.body));
      }
    };
  }
}

/**
 * The batch placing endpoints: there `refuse` refuses the item that names the text, not the request (the
 * handler asks `SimFaults.refuses` per item), as an exchange refuses one bad order of a batch.
 */
const BATCH_PLACING = ['/fapi/v1/batchOrders', '/v5/order/create-batch', '/api/v5/trade/batch-orders', '/api/v1/order/bulk'];

/**
 * A preHandler hook (the body is parsed by then) for `refuse`: a request naming one of the texts in
 * its URL or body is refused with the exchange's own validation error (a batch placement: the item).
 */
export function refuseHook(faults: SimFaults, exchange: SimExchange, answers: FaultAnswers) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { refuse } = faults.get(exchange);
    if (!refuse.length || (req.method !== 'POST' && req.method !== 'PUT')) return;
    if (req.method === 'POST' && BATCH_PLACING.some((p) => req.url.split('?')[0].endsWith(p))) return;
    const text = `${decodeSafe(req.url)} ${typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? '')}`;
    if (!refuse.some((r) => text.includes(r))) return;
    const a = answers.refused();
    await reply.code(a.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(a.body));
  };
}

function decodeSafe(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
