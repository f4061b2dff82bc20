import type { FastifyRequest } from 'fastify';
import { binanceWeight } from './binance/weights';
import { queryOf } from './context';
import type { SimExchange } from './market/catalogue';

/** The header each exchange's signed requests name their API key in. */
const KEY_HEADER: Record<SimExchange, string> = { binance: 'x-mbx-apikey', bybit: 'x-bapi-api-key', okx: 'ok-access-key', bitmex: 'api-key' };

/**
 * Signed (private) REST requests this simulator answered, by exchange and API key (`GET
 * /sim/_control/requests`): what a key's clients — the server's guards and account state — cost the
 * exchange (`npm run bench:jobs`: REST weight per key per minute). One counter per process, never reset;
 * a map increment per request.
 */
export class SimRequestCounter {
  private readonly counts = new Map<string, number>();
  /** Binance: the documented IP weight of the key's requests (binance/weights.ts); other exchanges count requests. */
  private readonly weights = new Map<string, number>();
  private readonly paths = new Map<string, number>();
  /** Binance's address (one per network): the used-weight header's peak per minute, and the weight by request (public reads too). */
  private readonly address = new Map<string, { byMinute: Map<number, number>; byRequest: Map<string, number> }>();
  readonly since = Date.now();

  /** One Binance request's weight on the address's counter (`used`: the counter after it, in minute `minute`). */
  weigh(network: string, request: string, weight: number, minute: number, used: number): void {
    let a = this.address.get(network);
    if (!a) this.address.set(network, (a = { byMinute: new Map(), byRequest: new Map() }));
    a.byRequest.set(request, (a.byRequest.get(request) ?? 0) + weight);
    a.byMinute.set(minute, Math.max(a.byMinute.get(minute) ?? 0, used));
    // An hour of minutes is plenty for a bench; older ones go.
    if (a.byMinute.size > 60) a.byMinute.delete(a.byMinute.keys().next().value as number);
  }

  count(exchange: SimExchange, req: FastifyRequest): void {
    const raw = req.headers[KEY_HEADER[exchange]];
    const key = Array.isArray(raw) ? raw[0] : raw;
    // BitMEX may authenticate in the query of a socket upgrade; a REST call without a key header is not a key's.
    if (!key) return;
    const id = `${exchange}:${key}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    const weight = exchange === 'binance' ? binanceWeight(req.method, req.url, queryOf(req)) : 1;
    this.weights.set(id, (this.weights.get(id) ?? 0) + weight);
    const q = req.url.indexOf('?');
    // The exchange's path below the mount (`GET /fapi/v3/positionRisk`), whatever the prefix.
    const p = `${req.method} ${exchange} ${(q < 0 ? req.url : req.url.slice(0, q)).replace(/^.*?\/(binance|bybit|okx|bitmex)(?=\/)/, '')}`;
    this.paths.set(p, (this.paths.get(p) ?? 0) + 1);
  }

  /**
   * `{ since, byKey: { "<exchange>:<apiKey>": n }, weightByKey: {…}, byPath: { "GET binance /fapi/v3/positionRisk": n },
   * binanceAddress: { MAINNET: { byMinute: { "<minute since epoch>": peak used weight }, byRequest: { "GET /fapi/v1/klines": weight } } } }`.
   */
  snapshot(): {
    since: number;
    byKey: Record<string, number>;
    weightByKey: Record<string, number>;
    byPath: Record<string, number>;
    binanceAddress: Record<string, { byMinute: Record<string, number>; byRequest: Record<string, number> }>;
  } {
    const binanceAddress = Object.fromEntries([...this.address].map(([net, a]) => [net, { byMinute: Object.fromEntries(a.byMinute), byRequest: Object.fromEntries(a.byRequest) }]));
    return { since: this.since, byKey: Object.fromEntries(this.counts), weightByKey: Object.fromEntries(this.weights), byPath: Object.fromEntries(this.paths), binanceAddress };
  }
}
