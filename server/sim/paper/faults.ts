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
}

export const faultBodySchema = z
  .object({
    exchange: z.enum(['binance', 'bybit', 'bitmex', 'okx']).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    unavailable: z.boolean().optional(),
    rateLimit: z.boolean().optional(),
    dropPrivateSockets: z.boolean().optional(),
    /** Clears the exchange's faults (every exchange's when no exchange is named). */
    clear: z.boolean().optional(),
  })
  .strict();

/** A venue's own shapes for the injected failures (Binance: 503 / -1001 and 429 / -1003, …). */
export interface FaultAnswers {
  unavailable(): { status: number; body: unknown };
  rateLimited(): { status: number; body: unknown; headers?: Record<string, string> };
}

const NONE: FaultSpec = { latencyMs: 0, unavailable: false, rateLimit: false, dropPrivateSockets: false };

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

  all(): Partial<Record<SimExchange, FaultSpec>> {
    return Object.fromEntries(this.byExchange);
  }

  /**
   * An onRequest hook for a venue's private scope: latency first, then the injected failure in the
   * exchange's own shape. Venue-agnostic, so every venue gets the faults by adding this one hook.
   */
  hook(exchange: SimExchange, answers: FaultAnswers) {
    return async (_req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const f = this.get(exchange);
      if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs));
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
